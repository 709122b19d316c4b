// The PBF blocks inflated by libdeflate instead of zlib.
//
// libosmium 2.19 inflates each zlib-compressed PBF block with zlib's `::uncompress` (zlib_uncompress_string in
// osmium/io/detail/zlib.hpp), which was about a tenth of an import's CPU. libdeflate reads the same zlib streams
// (checksum included) twice as fast when, as here, the whole block and its inflated size are known. This header
// must come before any of libosmium's: it names zlib's function over for the rest of this translation unit, the
// only one that includes libosmium (COSMium.cpp), so no other code's `uncompress` changes.
#pragma once

#include <libdeflate.h>
#include <zlib.h>

#include <cstddef>
#include <memory>

namespace cosmium {

struct DecompressorRelease {
    void operator()(libdeflate_decompressor* decompressor) const noexcept { libdeflate_free_decompressor(decompressor); }
};

// One a thread: the decoders of libosmium's pool inflate blocks at once, and a decompressor is not shared.
inline libdeflate_decompressor* threadDecompressor() noexcept {
    thread_local std::unique_ptr<libdeflate_decompressor, DecompressorRelease> decompressor{libdeflate_alloc_decompressor()};
    return decompressor.get();
}

} // namespace cosmium

// zlib's `uncompress` contract: Z_OK with the inflated size in *destLen, Z_BUF_ERROR when the block holds more
// than *destLen bytes, Z_DATA_ERROR when it is damaged (libosmium turns any of them into its io_error).
inline int travel411_pbf_uncompress(Bytef* dest, uLongf* destLen, const Bytef* source, uLong sourceLen) noexcept {
    libdeflate_decompressor* decompressor = cosmium::threadDecompressor();
    if (decompressor == nullptr) return Z_MEM_ERROR;
    std::size_t inflated = 0;
    switch (libdeflate_zlib_decompress(decompressor, source, sourceLen, dest, *destLen, &inflated)) {
    case LIBDEFLATE_SUCCESS:
        *destLen = static_cast<uLongf>(inflated);
        return Z_OK;
    case LIBDEFLATE_INSUFFICIENT_SPACE:
        return Z_BUF_ERROR;
    default:
        return Z_DATA_ERROR;
    }
}

#define uncompress travel411_pbf_uncompress
