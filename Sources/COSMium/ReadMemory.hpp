// What travel411's extract reader does about the memory of libosmium's threads (COSMium.cpp includes it; one
// translation unit): how far they decode ahead, and the free pages their heaps keep.

#ifndef COSMIUM_READ_MEMORY_HPP
#define COSMIUM_READ_MEMORY_HPP

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace cosmium {

    /// How many blocks libosmium decodes ahead of the reading thread: its "OSMDATA" queue, 20 unless
    /// OSMIUM_MAX_OSMDATA_QUEUE_SIZE says otherwise when a reader is made. A block of relations is tens of MB
    /// once decoded, so the first pass held up to 20 of them at once, a peak that grew with the file until it had
    /// 20 blocks of relations. Two more than the decoding threads keeps every thread busy. A value the user set
    /// is left as it is.
    inline void bound_blocks_decoded_ahead(int decoding_threads) {
        static const bool set_by_user = std::getenv("OSMIUM_MAX_OSMDATA_QUEUE_SIZE") != nullptr;
        if (set_by_user) {
            return;
        }
        const unsigned threads = decoding_threads > 0 ? static_cast<unsigned>(decoding_threads) : std::thread::hardware_concurrency();
        ::setenv("OSMIUM_MAX_OSMDATA_QUEUE_SIZE", std::to_string(std::max(4U, threads + 2)).c_str(), 1);
    }

    /// glibc gives back to the system only the free top of a thread's heap: what the read's threads free below
    /// blocks still in use (decoded blocks, features on their way to the callback) stays resident, and the pages
    /// of a burst (the first pass's relations) stayed under the read's memory until its end, more of them the
    /// larger the file. The free pages of every heap are handed back (`malloc_trim`) between the passes and every
    /// two seconds.
    class FreePagesReturn {
        using clock = std::chrono::steady_clock;
        static constexpr std::chrono::seconds interval{2};
        clock::time_point m_last = clock::now();

    public:
        void now() {
#if defined(__GLIBC__)
            ::malloc_trim(0);
#endif
            m_last = clock::now();
        }

        void after_block() {
            if (clock::now() - m_last >= interval) {
                now();
            }
        }
    };

} // namespace cosmium

#endif
