/* thread: starting a helper thread that takes no signal. SIGINT, SIGTERM
 * and the rest are for the threads that wait for them (the load loop, the
 * main thread); a sampler or a scrape endpoint that took one would cut
 * short a system call of its own and leave the handler's flag unseen. */
#ifndef RPCBENCH_THREAD_H
#define RPCBENCH_THREAD_H

#include <pthread.h>

/* Starts fn(arg) in a new joinable thread (*t, the caller's to join) whose
 * signal mask is full; the calling thread's own mask is as it was.
 * @return 0, or the error number pthread_create gave (the thread did not
 * start). */
int thread_start_quiet(pthread_t *t, void *(*fn)(void *), void *arg);

#endif
