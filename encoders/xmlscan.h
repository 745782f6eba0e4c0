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

/* Returns ENC_OK, ENC_FAULT (with *code: faultCode or status.code; 0 if a
 * fault carries no readable code) or ENC_DECODE. */
int xmlscan_check(const char *body, size_t len, int64_t *code);

/* xmlrpc-c 1.33 (Debian 12) crashes parsing an <i8> whose text is not a
 * number (found by fuzzing: <i8>1x</i8>). Returns 1 when every <i8> (and
 * <ex:i8>) in the document holds an optionally signed decimal integer, so
 * the document is safe to hand to xmlrpc-c; 0 otherwise. */
int xmlscan_i8_ok(const char *body, size_t len);

#endif
