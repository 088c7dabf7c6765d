#ifndef CLISTSYNCPREFETCH_H
#define CLISTSYNCPREFETCH_H

/// Asks the processor to start loading the cache line holding `address`, without waiting for it (a hint:
/// it never faults and changes no state a program can observe). Swift has no prefetch of its own.
static inline void listsync_prefetch(const void *address) { __builtin_prefetch(address); }

#endif
