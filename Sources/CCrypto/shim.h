// OpenSSL's libcrypto, for the SHA-256 of imported source files (travel411_sources).
// The system library costs no compile time, where swift-crypto took ~110 s of a fresh clone's first build.
#include <openssl/evp.h>
