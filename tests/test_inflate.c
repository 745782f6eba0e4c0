/* test_inflate: inflate_zlib (zlib behind rpcbench's buffers and errors)
 * reads fixed and dynamic Huffman blocks, stored blocks and an empty
 * stream byte for byte, appends after what the buffer held, and refuses
 * every truncated or damaged stream with a one-line reason.
 * The compressed vectors were made by Python's zlib.compress (level 9;
 * the stored one, level 0). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "stats/inflate.h"

/* "hello hello hello hello, rpcbench! " three times: one fixed block. */
static const char fixed_hex[] = "78dacb48cdc9c957c8402775148a0a929352f39233143125c9520200de742587";
static const char empty_hex[] = "789c030000000001";
/* "hello hello hello hello, rpcbench! " once, level 0: one stored block
 * (how rpcbench wrote its histograms before zlib compressed them). */
static const char stored_hex[] =
    "7801012300dcff68656c6c6f2068656c6c6f2068656c6c6f2068656c6c6f2c2072706362656e63682120e9930c83";
/* dyn_text(): one dynamic block */
static const char dynamic_hex[] =
    "78da8d574b4e03310cbdca1cc1465c80256b54f608aaaa520721a6707e86d48efd6c27a0"
    "4a339924febe173bddae2fd7af6d598feb617b391d175eb6dbcce5bc5d97d78fafc376fc"
    "d4b9d3f1fa70b93caf4ffbe7d617bfd7c737f7c04d22797fb77c9cdf4f7385f8d5f6d3af"
    "24df9c3155cd4ea9a2f080d33775379a0d51c47d96ddb827260fc60e50773238db65557d"
    "76cda75fc6f2a2c20706f554a550d66a8b25587453aa129493913d6aa6f668bdfb4d4b1b"
    "ed0ba4a9d912e3fa10bdd985d284e633824a4a12429e95f1c946aeb205a839d7f6290f49"
    "ca8886591050f7b62d0e629a4343dd176fb88d330fccf7f6f06e2b320609da51cf713642"
    "ed35b23b8a2a8d7e657034c6f8e690644eb00cfc9ac00c85c9a91f97a77f286bbe755564"
    "558366d6312d146b656dd2ed1f2c84e365e8b791ad02ecb53149929dd0aafe0f8085b499"
    "fdf6c81cdd4d40dd15cb2662e58362a3f823510d9c3981cd3d1a8553e338aff7a231d2ba"
    "b3438a9e61c5a91716cd460b49640e050a78fa2ae0ff8989722752f1b430e23717685270"
    "5b20b6dc0311b1bd79f249567b16b17093f27576b2a9fd44c23b67178abea180942754b3"
    "ea57177ce47fe45ce70439453e47d02f30c4701a304d5656c24d291fc5226a93c15d92a2"
    "42c29b62ac17b92a060a480a2400869b4abe5ce002be38c48859b34b24e5cb44ea9254de"
    "393cf90020f8987131a964df56921b45ae4126b6b449f74aa799e7f58b5c9845e7574609"
    "332c393567c717bb0e5e6e58e1c2e3ba460227f7365f3f06d6bbe99bad1c03b71ff0d91f"
    "0240dfd797ea4f450a1c3da36175a541038e8d2632dd1bf779ee17e47c34598d856ef303"
    "fcaae973";

static size_t unhex(const char *hex, unsigned char *out)
{
    size_t n = strlen(hex) / 2;
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        sscanf(hex + 2 * i, "%2x", &v);
        out[i] = (unsigned char)v;
    }
    return n;
}

/* The text behind dynamic_hex: 600 words picked by an LCG. */
static void dyn_text(struct buf *b)
{
    static const char *const words[] = {"getAllVmStats", "list", "ping", "vmId", "status",
                                        "cpuUser", "memUsage", "0", "1", "42"};
    uint64_t seed = 7;
    for (int i = 0; i < 600; i++) {
        seed = (seed * 1103515245 + 12345) % 2147483648u;
        if (i)
            buf_append(b, " ", 1);
        buf_append_str(b, words[(seed >> 16) % 10]);
    }
}

static void test_zlib_vectors(void **state)
{
    (void)state;
    unsigned char z[1024];
    struct buf out = {0}, want = {0};
    char err[ERR_LEN] = "";
    size_t n = unhex(fixed_hex, z);
    assert_int_equal(inflate_zlib(z, n, &out, err), 0);
    for (int i = 0; i < 3; i++)
        buf_append_str(&want, "hello hello hello hello, rpcbench! ");
    assert_int_equal(out.len, want.len);
    assert_memory_equal(out.data, want.data, want.len);
    buf_reset(&out), buf_reset(&want);
    n = unhex(dynamic_hex, z);
    assert_int_equal(inflate_zlib(z, n, &out, err), 0);
    dyn_text(&want);
    assert_int_equal(out.len, want.len);
    assert_memory_equal(out.data, want.data, want.len);
    buf_reset(&out), buf_reset(&want);
    n = unhex(stored_hex, z);
    assert_int_equal(inflate_zlib(z, n, &out, err), 0);
    buf_append_str(&want, "hello hello hello hello, rpcbench! ");
    assert_int_equal(out.len, want.len);
    assert_memory_equal(out.data, want.data, want.len);
    buf_reset(&out);
    n = unhex(empty_hex, z);
    assert_int_equal(inflate_zlib(z, n, &out, err), 0);
    assert_int_equal(out.len, 0);
    buf_free(&out), buf_free(&want);
}

/* Every truncation of the dynamic vector fails with a reason; every
 * single-bit flip fails, or (padding bits, the header's level bits) still
 * decodes to the very same bytes: never a crash, never a success with
 * other bytes (the Adler-32 trailer sees them). */
static void test_damage(void **state)
{
    (void)state;
    unsigned char z[1024];
    size_t n = unhex(dynamic_hex, z);
    struct buf out = {0}, want = {0};
    char err[ERR_LEN];
    dyn_text(&want);
    for (size_t cut = 0; cut < n; cut++) {
        buf_reset(&out);
        assert_int_equal(inflate_zlib(z, cut, &out, err), -1);
        assert_non_null(strstr(err, "hdr histogram: "));
    }
    for (size_t bit = 0; bit < n * 8; bit++) {
        z[bit / 8] ^= (unsigned char)(1u << bit % 8);
        buf_reset(&out);
        if (inflate_zlib(z, n, &out, err) == 0) {
            assert_int_equal(out.len, want.len);
            assert_memory_equal(out.data, want.data, want.len);
        } else {
            assert_non_null(strstr(err, "hdr histogram: "));
        }
        z[bit / 8] ^= (unsigned char)(1u << bit % 8);
    }
    buf_free(&out), buf_free(&want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zlib_vectors),
        cmocka_unit_test(test_damage),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
