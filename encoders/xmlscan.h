/* xmlscan: the XML-RPC cheap response check, by literal matching only
 * (memcmp/memmem), never a tree and never an allocation.
 *
 * It looks at the prolog, <methodResponse>, the closing tag at the very end
 * (so a truncated body is caught in O(1)), then either <fault> (faultCode) or
 * <params> and VDSM's status envelope: a member named status whose value is
 * a struct holding code. The first member of the result struct is tried
 * first (VDSM and xmlrpc-c put status there); otherwise every
 * <name>status</name> is tried in turn, skipping the VMs' string statuses. */
#ifndef RPCBENCH_XMLSCAN_H
#define RPCBENCH_XMLSCAN_H

#include <stddef.h>
#include <stdint.h>

/* Checks the whole body (borrowed; nothing is allocated or kept).
 * @return ENC_OK, ENC_FAULT (with *code: faultCode or status.code; 0 if a
 * fault carries no readable code) or ENC_DECODE. */
int xmlscan_check(const char *body, size_t len, int64_t *code);

/* Whether the body is a whole methodResponse holding a <fault> whose
 * faultCode is an integer (borrowed; nothing is allocated or kept).
 * @return ENC_FAULT with *code, or ENC_DECODE (with *code 0). */
int xmlscan_fault(const char *body, size_t len, int64_t *code);

/* The same check split for a body that arrives in pieces, so the middle of
 * a long one need not be kept (see check_stream.h). xmlscan_check_head
 * decides from the first bytes alone, or returns XMLSCAN_MORE when it needs
 * the whole body; a decision stands if xmlscan_tail_ok accepts the last
 * bytes (the closing tag after trailing blanks): then xmlscan_check on the
 * whole body returns the same status and code. */
#define XMLSCAN_MORE (-1)
/* @return what xmlscan_check would (ENC_OK, ENC_FAULT with *code,
 * ENC_DECODE), or XMLSCAN_MORE when the head does not decide. */
int xmlscan_check_head(const char *head, size_t len, int64_t *code);
/* @return 1 when tail ends with the closing tag, else 0. */
int xmlscan_tail_ok(const char *tail, size_t len);

/* Whether a document is safe to hand to xmlrpc-c 1.33 (Debian 12), which
 * mishandles, as found by fuzzing and by hostile peers:
 * - an <i8> (or <ex:i8>) whose text is not an int64 crashes it (<i8>1x</i8>);
 * - a DTD makes its expat expand entities ("billion laughs": seconds of
 *   CPU per request); XML-RPC has no use for DTDs, so any is refused;
 * - deep nesting: it builds the whole element tree and frees it
 *   recursively, so ~70,000 levels overflow the stack (SIGSEGV). Elements
 *   deeper than XMLSCAN_MAX_DEPTH are refused; VDSM's deepest answer
 *   (getAllVmStats) is about 12 levels.
 * body is borrowed; nothing is allocated.
 * @return NULL when safe, else a static one-line reason ("refused: ..."). */
#define XMLSCAN_MAX_DEPTH 256
#define XMLSCAN_MAX_DEPTH_TEXT "256"
const char *xmlscan_unsafe(const char *body, size_t len);

#endif
