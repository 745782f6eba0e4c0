/* tmpl: the templates of a workload's params (${seq}, ${uuid},
 * ${rand:LO:HI}, ${pick:FILE}, ${line:FILE}), rendered without a malloc
 * per request.
 *
 * A call is rendered once by its encoder with each template replaced by a
 * marker string (tmpl_marker); tmpl_compile then cuts that body into
 * fixed segments (the literal bytes, already escaped by the encoder) and
 * variable slots, and tmpl_stamp writes one request from them: literal
 * bytes copied, each slot filled with a fresh value escaped for the
 * encoding. A template that is a whole JSON string ("${seq}") fills the
 * whole value: ${seq} and ${rand} are then integers (XML-RPC <int>, or
 * <i8> beyond 32 bits), the others strings; inside a longer string it is
 * text.
 *
 * Values: ${seq} is one per request (every ${seq} of a request is the
 * same), counting 0, 1, 2, ... as the caller's sequence says; the others
 * are drawn per occurrence from the state's splitmix64 stream. */
#ifndef RPCBENCH_TMPL_H
#define RPCBENCH_TMPL_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/err.h"

#define TMPL_MAX_VARS 64   /* template occurrences in a whole workload */
#define TMPL_MAX_FILES 8   /* distinct FILEs of ${pick} and ${line} */
#define TMPL_MAX_SEGS 130  /* segments of one call: 2 per occurrence, and more */
#define TMPL_MARKER_LEN 14 /* a head ("rpcbenchV") + 4 digits + 'Z' */
#define TMPL_HEAD_LEN 9    /* "rpcbench" and a letter: chosen per call */
#define TMPL_HEADS 52      /* the letters A-Z a-z */

enum tmpl_kind { TMPL_SEQ, TMPL_UUID, TMPL_RAND, TMPL_PICK, TMPL_LINE };

/* One occurrence of a template in a workload. */
struct tmpl_var {
    enum tmpl_kind kind;
    int whole;      /* fills a whole JSON value (else: part of a string) */
    int64_t lo, hi; /* ${rand:LO:HI}, LO <= HI */
    int file;       /* ${pick}, ${line}: index into the workload's files */
};

/* The lines of a ${pick} or ${line} FILE, loaded once. */
struct tmpl_file {
    char path[512];
    char *data;        /* owned: the file's bytes, each line NUL-ended */
    const char **line; /* owned array of n pointers into data */
    size_t *len;       /* owned array of n lengths */
    size_t n;          /* >= 1 */
};

/* The state of a run's values: the caller's, set by tmpl_state_init. */
struct tmpl_state {
    uint64_t rng;
    size_t cursor[TMPL_MAX_FILES]; /* ${line}: the next line of each file */
    size_t step;                   /* ${line}: how far a cursor moves (ranks) */
};

/* The body of one call, cut at its templates. */
struct tmpl_seg {
    uint32_t off, len; /* literal: text[off .. off+len) */
    int var;           /* -1 literal, else an index into the vars */
};
struct tmpl {
    struct buf text;                  /* owned: the literal bytes */
    struct tmpl_seg seg[TMPL_MAX_SEGS];
    size_t nseg;
    size_t id_off, id_len;            /* the id slot in the literal text (id_len 0: none) */
    int nvars;                        /* slots (0: the call is fixed) */
};

/* The k-th marker head (k < TMPL_HEADS) into head: "rpcbenchV" first.
 * A call's markers must not be text its method or params have already
 * (they would be cut as templates): the caller picks a head none of them
 * contains, the same for tmpl_parse_string and tmpl_compile. */
void tmpl_head(unsigned k, char head[TMPL_HEAD_LEN + 1]);

/* Parses the templates of string s (NUL-ended) into vars[*nvars ...] and
 * writes s with each replaced by its marker (head and the var's index)
 * into out (outlen bytes).
 * Files are loaded once, relative to dir, into files[*nfiles ...].
 * @return 0, or -1 with err ("unknown template ${x}", "FILE: cannot read").
 * The files' memory is the caller's to free with tmpl_files_free. */
int tmpl_parse_string(const char *s, const char *head, const char *dir,
                      struct tmpl_var *vars, size_t *nvars,
                      struct tmpl_file *files, size_t *nfiles, char *out, size_t outlen,
                      char *err);
/* Frees files[0..n) (safe on zeroed ones). */
void tmpl_files_free(struct tmpl_file *files, size_t n);

/* Cuts body[0..len) (a call rendered with markers of head; its id slot at id_off,
 * id_len 0 for none) into t (zeroed or compiled before: its text is
 * reused). xml: the body is XML-RPC (else JSON). vars: every occurrence.
 * @return 0, or -1 with err (a marker the encoder did not keep as a
 * plain value). Free t with tmpl_free. */
int tmpl_compile(struct tmpl *t, const char *head, const char *body, size_t len, size_t id_off,
                 size_t id_len, int xml, const struct tmpl_var *vars, size_t nvars, char *err);
void tmpl_free(struct tmpl *t);

/* Readies st: values from seed; ${line} cursors start at rank and move
 * by ranks (0 or 1: a single process), so ranks never send the same line
 * together. */
void tmpl_state_init(struct tmpl_state *st, uint64_t seed, unsigned ranks, unsigned rank);
/* Appends one request of t to out (reset first), seq its ${seq}; the id
 * slot lands at *id_off of out. Allocates only while out grows to its
 * largest request. @return 0, or -1 (out of memory). */
int tmpl_stamp(const struct tmpl *t, const struct tmpl_var *vars, const struct tmpl_file *files,
               struct tmpl_state *st, int xml, uint64_t seq, struct buf *out, size_t *id_off);

#endif
