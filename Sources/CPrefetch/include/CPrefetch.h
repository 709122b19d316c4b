#ifndef C_PREFETCH_H
#define C_PREFETCH_H

/// Asks the processor to bring the cache line holding `address` closer without waiting for it, as GCC's and
/// Clang's documented `__builtin_prefetch` does (read, keep in every cache level). Swift has no such
/// instruction of its own. A prefetch never faults, so any address may be passed.
static inline void travel411_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }

#endif
