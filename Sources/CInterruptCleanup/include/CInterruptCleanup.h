#ifndef C_INTERRUPT_CLEANUP_H
#define C_INTERRUPT_CLEANUP_H

/// Files to delete if the process is interrupted (SIGINT, SIGTERM, SIGHUP): a half-built database must not
/// outlive the build. The handler only unlinks the registered paths, then lets the signal end the process
/// as it would have (exit status and all), so it stays async-signal-safe.
///
/// A signal that the process ignores or handles itself when the first path is registered is left alone.

/// Registers `path` (copied); returns its slot, or -1 when every slot is taken or the path is too long.
int travel411_interrupt_cleanup_register(const char *path);

/// Forgets the slot (the file has been moved into place or removed). When no slot is left, the signals'
/// earlier dispositions come back.
void travel411_interrupt_cleanup_unregister(int slot);

#endif
