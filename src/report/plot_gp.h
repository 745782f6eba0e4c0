/* plot_gp: what the plots (plot.c, sweep_plot.c) share to write a gnuplot
 * script and run it. */
#ifndef RPCBENCH_PLOT_GP_H
#define RPCBENCH_PLOT_GP_H

#include <stddef.h>
#include <stdio.h>

/* in with every character but letters, digits, '-' and '_' made '_',
 * into out (len bytes, the caller's, always terminated). */
void plot_safe_name(const char *in, char *out, size_t len);
/* Writes s to f as a gnuplot single-quoted string (quotes doubled, line
 * breaks dropped). */
void plot_gp_str(FILE *f, const char *s);
/* A panel that says what (centred) instead of plotting nothing. */
void plot_placeholder(FILE *f, const char *what);
/* @return 1 when gnuplot is on PATH, else 0. */
int plot_have_gnuplot(void);
/* Runs `gnuplot script` (stdout discarded) within a bounded time.
 * @return 0, or -1 with err (ERR_LEN, caller-owned: fork failed, timed
 * out, gnuplot failed). */
int plot_run_gnuplot(const char *script, char *err);

#endif
