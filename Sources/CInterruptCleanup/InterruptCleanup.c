#include "CInterruptCleanup.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

// A build registers a database and its three SQLite companions; a few builds may overlap in one process.
#define SLOT_COUNT 16

static char paths[SLOT_COUNT][PATH_MAX];
// 1 once `paths[slot]` is complete; the handler reads only complete paths.
static atomic_int inUse[SLOT_COUNT];
static int registered;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static const int signals[] = {SIGINT, SIGTERM, SIGHUP};
#define SIGNAL_COUNT (sizeof signals / sizeof signals[0])
static struct sigaction previous[SIGNAL_COUNT];
static int installed[SIGNAL_COUNT];

static void removeRegisteredFiles(int signalNumber) {
    int savedErrno = errno;
    for (int slot = 0; slot < SLOT_COUNT; slot++) {
        if (atomic_load_explicit(&inUse[slot], memory_order_acquire)) unlink(paths[slot]);
    }
    // The default action, raised again once this handler returns (the signal is blocked until then):
    // the process ends as the signal says, and its parent sees that it was interrupted.
    signal(signalNumber, SIG_DFL);
    raise(signalNumber);
    errno = savedErrno;
}

static void install(void) {
    for (unsigned i = 0; i < SIGNAL_COUNT; i++) {
        struct sigaction current;
        installed[i] = 0;
        if (sigaction(signals[i], NULL, &current) != 0) continue;
        // SIG_IGN (nohup, a background job's SIGINT) or a handler of the program's own: not ours to take.
        if (current.sa_handler != SIG_DFL || (current.sa_flags & SA_SIGINFO)) continue;
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = removeRegisteredFiles;
        sigemptyset(&action.sa_mask);
        for (unsigned j = 0; j < SIGNAL_COUNT; j++) sigaddset(&action.sa_mask, signals[j]);
        if (sigaction(signals[i], &action, &previous[i]) == 0) installed[i] = 1;
    }
}

static void restore(void) {
    for (unsigned i = 0; i < SIGNAL_COUNT; i++) {
        if (installed[i]) sigaction(signals[i], &previous[i], NULL);
        installed[i] = 0;
    }
}

int travel411_interrupt_cleanup_register(const char *path) {
    size_t length = strlen(path);
    if (length >= PATH_MAX) return -1;
    pthread_mutex_lock(&lock);
    int found = -1;
    for (int slot = 0; slot < SLOT_COUNT; slot++) {
        if (!atomic_load_explicit(&inUse[slot], memory_order_relaxed)) {
            found = slot;
            break;
        }
    }
    if (found >= 0) {
        memcpy(paths[found], path, length + 1);
        atomic_store_explicit(&inUse[found], 1, memory_order_release);
        if (registered++ == 0) install();
    }
    pthread_mutex_unlock(&lock);
    return found;
}

void travel411_interrupt_cleanup_unregister(int slot) {
    if (slot < 0 || slot >= SLOT_COUNT) return;
    pthread_mutex_lock(&lock);
    if (atomic_exchange_explicit(&inUse[slot], 0, memory_order_acq_rel)) {
        if (--registered == 0) restore();
    }
    pthread_mutex_unlock(&lock);
}
