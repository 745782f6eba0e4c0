/* thread: helper threads without signals (thread.h). */
#include "base/thread.h"

#include <signal.h>

int thread_start_quiet(pthread_t *t, void *(*fn)(void *), void *arg)
{
    /* a new thread inherits its creator's mask: block all around the
     * create, then give the creator its own back */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int rc = pthread_create(t, NULL, fn, arg);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return rc;
}
