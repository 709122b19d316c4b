// Runs Travel411TestSupport's travel411TestProcessDidLoad() as the test bundle loads, before XCTest starts:
// Swift has no load-time initialisers and XCTest on Linux no principal class, so a test observer that must
// see every run, whichever tests --filter picks, is registered from here.
extern void travel411TestProcessDidLoad(void) __attribute__((weak));

__attribute__((constructor)) static void travel411TestStartup(void) {
    if (travel411TestProcessDidLoad) travel411TestProcessDidLoad();
}
