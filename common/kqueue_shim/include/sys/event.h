/* sys/event.h: TEST DOUBLE. Not the BSD kernel's kqueue.
 *
 * A small subset of the BSD kqueue API (kqueue(), kevent(), EV_SET, EVFILT_READ and
 * EVFILT_WRITE), implemented over Linux epoll in ../../kqueue_shim.cpp, so that looplab's
 * kqueue selector runs its logic in CI on Linux, which has no <sys/event.h>. On macOS and the
 * BSDs the real header is used and this one is not on the include path. Its differences from
 * a kernel kqueue are listed in ../../README.md.
 *
 * The layout of struct kevent is the classic one (macOS, FreeBSD before 12): no ext[4].
 * Flag and filter values are FreeBSD's.
 */
#ifndef LOOPLAB_KQUEUE_SHIM_SYS_EVENT_H
#define LOOPLAB_KQUEUE_SHIM_SYS_EVENT_H

#include <stdint.h>
#include <time.h>

/* Defined only by the shim: code can tell it is not running on a kernel kqueue. */
#define LOOPLAB_KQUEUE_SHIM 1

/* Filters. Only these two are supported; any other nonzero filter is EINVAL. */
#define EVFILT_READ (-1)
#define EVFILT_WRITE (-2)

/* Actions and flags, as passed in a change. */
#define EV_ADD 0x0001     /* add the filter, or update the udata of an existing one */
#define EV_DELETE 0x0002  /* delete the filter */
#define EV_ENABLE 0x0004  /* report it again */
#define EV_DISABLE 0x0008 /* keep it but do not report it */
#define EV_ONESHOT 0x0010 /* delete it after it is reported once */
#define EV_CLEAR 0x0020   /* report it only on new activity (approximated, see README.md) */
#define EV_RECEIPT 0x0040 /* always return the change's outcome as an EV_ERROR event */

/* Returned flags. */
#define EV_ERROR 0x4000 /* a change failed (or EV_RECEIPT): data holds the errno, 0 on success */
#define EV_EOF 0x8000   /* the peer hung up; fflags may hold the socket error (0 in the shim) */

struct kevent {
  uintptr_t ident;      /* the descriptor */
  short filter;         /* EVFILT_READ or EVFILT_WRITE */
  unsigned short flags; /* EV_* */
  unsigned int fflags;  /* filter flags: must be 0 in changes; 0 in events */
  intptr_t data;        /* READ: bytes readable; WRITE: free space (estimated); EV_ERROR: errno */
  void* udata;          /* returned as given */
};

/* Fills *kevp. Every argument is evaluated exactly once. */
#define EV_SET(kevp, a, b, c, d, e, f)                 \
  do {                                                 \
    struct kevent* looplab_ev_set_kevp_ = (kevp);      \
    looplab_ev_set_kevp_->ident = (uintptr_t)(a);      \
    looplab_ev_set_kevp_->filter = (short)(b);         \
    looplab_ev_set_kevp_->flags = (unsigned short)(c); \
    looplab_ev_set_kevp_->fflags = (unsigned int)(d);  \
    looplab_ev_set_kevp_->data = (intptr_t)(e);        \
    looplab_ev_set_kevp_->udata = (f);                 \
  } while (0)

#ifdef __cplusplus
extern "C" {
#endif

/* A new queue: a descriptor, closed with close(2). -1 and errno on failure. */
int kqueue(void);

/* Applies `changelist` in order, then waits for up to `nevents` events (NULL timeout: forever).
 * Returns the number of events placed in `eventlist`, or -1 with errno set. */
int kevent(int kq, const struct kevent* changelist, int nchanges, struct kevent* eventlist,
           int nevents, const struct timespec* timeout);

#ifdef __cplusplus
}
#endif

#endif /* LOOPLAB_KQUEUE_SHIM_SYS_EVENT_H */
