// Nothing to import: this target only runs Travel411TestSupport's setup when the test bundle loads
// (see TestStartup.c).
