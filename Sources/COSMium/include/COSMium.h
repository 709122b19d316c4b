#ifndef COSMIUM_H
#define COSMIUM_H

// A plain C interface over libosmium for travel411's OpenStreetMap extract reader (Travel411Kit/OSM).
// No C++ type or exception crosses it: every failure comes back as a status and a message.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum cosm_element_type {
    COSM_NODE = 1,
    COSM_WAY = 2,
    COSM_RELATION = 3,
} cosm_element_type;

typedef enum cosm_geometry_type {
    /// A node: one coordinate.
    COSM_GEOMETRY_POINT = 1,
    /// A way's nodes in order; nodes missing from the extract are left out (and counted in missing_nodes).
    COSM_GEOMETRY_LINE = 2,
    /// An area from a closed way or a multipolygon/boundary relation: rings, each outer ring followed by its holes.
    COSM_GEOMETRY_AREA = 3,
} cosm_geometry_type;

/// One element handed to the callback. Every pointer is valid only during the call.
typedef struct cosm_element {
    cosm_element_type element_type;
    int64_t id;
    cosm_geometry_type geometry_type;
    /// The element's tags, only those options->kept_keys and kept_key_prefixes keep (all when both are empty).
    size_t tag_count;
    const char *const *tag_keys;
    const char *const *tag_values;
    /// For each tag, the index of its key in options->kept_keys, or -1 for a key kept by a prefix (or kept because
    /// no key list was given): the callback need not read the key's bytes of a known key.
    const int32_t *tag_key_indices;
    /// Longitude, latitude pairs: point_count pairs.
    const double *coordinates;
    size_t point_count;
    /// Areas: ring i holds the points [ring_ends[i - 1], ring_ends[i]) (from 0 for the first); ring_is_outer[i]
    /// says whether it is an outer ring. Rings are closed (first point repeated last).
    size_t ring_count;
    const size_t *ring_ends;
    const unsigned char *ring_is_outer;
    /// Lines: the way's first and last node ids and, when these nodes carry addr:housenumber, its value (else NULL).
    int64_t first_node_id;
    int64_t last_node_id;
    const char *first_node_housenumber;
    const char *last_node_housenumber;
    /// addr:interpolation lines: for each of the point_count points, its node's addr:housenumber (else NULL); NULL
    /// for other lines.
    const char *const *node_housenumbers;
    /// addr:interpolation lines: for each of the point_count points, the addr:postcode of its node when that node
    /// also carries addr:housenumber (else NULL); NULL for other lines.
    const char *const *node_postcodes;
    /// addr:interpolation lines: the addr:street (else addr:place) of the first of its nodes that has one, else NULL.
    const char *node_street;
    /// Lines: how many of the way's nodes had no location (absent from the extract).
    size_t missing_nodes;
    /// Areas of an administrative boundary relation: its first node member with the role `label`, else 0.
    int64_t label_node_id;
    /// Nodes: 1 when an administrative boundary relation names the node as its `label` member.
    unsigned char is_label_member;
    /// Lines: 1 when the way has a key of the areas but made no area (not closed, or its ring crosses itself; a line
    /// of three nodes or fewer with keys of the lines too is not asked).
    unsigned char made_no_area;
} cosm_element;

typedef enum cosm_warning {
    /// A multipolygon or boundary relation some of whose members are not in the extract (normal at its edge).
    COSM_WARNING_RELATION_MEMBERS_MISSING = 1,
    /// An area whose rings do not close.
    COSM_WARNING_RING_NOT_CLOSED = 2,
    /// An area whose rings could not be assembled for another reason (self-intersections, overlapping segments).
    COSM_WARNING_INVALID_AREA = 3,
    /// A way with fewer than two node references.
    COSM_WARNING_WAY_WITHOUT_NODES = 4,
    /// A way of interest some of whose nodes are not in the extract.
    COSM_WARNING_WAY_NODES_MISSING = 5,
} cosm_warning;

/// Return 0 to go on, anything else to stop reading (cosm_read then returns COSM_STOPPED).
typedef int (*cosm_element_callback)(const cosm_element *element, void *context);
typedef void (*cosm_warning_callback)(cosm_warning warning, cosm_element_type element_type, int64_t id, void *context);

/// After each block of elements: which pass (1: relations, 2: everything, 3: everything and past the nodes), bytes
/// read so far, the file's size.
typedef void (*cosm_progress_callback)(int pass, uint64_t bytes_read, uint64_t file_size, void *context);

/// Where node locations are kept while the ways are read (NodeLocationStore.hpp says how the automatic choice is made).
typedef enum cosm_node_store {
    /// In memory for a file under the size the caller gives (locations_in_memory), else a dense or sparse file.
    COSM_NODE_STORE_AUTOMATIC = 0,
    /// A sparse index in memory: 16 bytes a node.
    COSM_NODE_STORE_MEMORY = 1,
    /// A sparse index in a file: 16 bytes a node.
    COSM_NODE_STORE_SPARSE_FILE = 2,
    /// A location at each id's offset in a file: 8 bytes for every id up to the largest a way uses.
    COSM_NODE_STORE_DENSE_FILE = 3,
} cosm_node_store;

typedef struct cosm_options {
    /// Which elements reach the callback: those with a tag whose key is in the list (for nodes, ways as lines,
    /// and closed ways and multipolygon/boundary relations as areas). Keys are compared whole.
    const char *const *node_keys;
    size_t node_key_count;
    const char *const *line_keys;
    size_t line_key_count;
    const char *const *area_keys;
    size_t area_key_count;
    /// Which of an element's tags reach the callback: those whose key is one of kept_keys (compared whole) or starts
    /// with one of kept_key_prefixes; every tag when both are empty. The others are never copied or decoded.
    const char *const *kept_keys;
    size_t kept_key_count;
    const char *const *kept_key_prefixes;
    size_t kept_key_prefix_count;
    /// libosmium's format name ("pbf", "osm", "osm.gz", "osm.bz2").
    const char *format;
    /// Where the node location index's temporary files go (created and removed at once: nothing stays behind), and
    /// the relations' files unless nodes_file is given.
    const char *temporary_directory;
    /// Non-zero: keep node locations in memory (16 bytes a node) instead, for a small file.
    int locations_in_memory;
    /// The store for node locations; COSM_NODE_STORE_AUTOMATIC (0) chooses from the ways' node references.
    cosm_node_store node_store;
    /// When not NULL: the path of the file store (a new file, as osm2pgsql's --flat-nodes, e.g. on another disk);
    /// it is created and unlinked at once, so that it is gone however the read ends. The multipolygon and boundary
    /// relations' temporary files go to its folder too.
    const char *nodes_file;
    /// How many bytes of the file store's pages the process may keep mapped (0: 256 MB); more are dropped from
    /// the process (they stay in the file and the page cache), so that its resident memory does not grow with
    /// the file.
    uint64_t resident_node_bytes;
    /// Threads decoding PBF blocks: 0 for libosmium's default pool, else a pool of this many for this read.
    int decoding_threads;
    /// When not NULL: 4 doubles per file read (west, south, east, north, in degrees), which the read fills with the
    /// extent of each file's node locations (a node several files hold counts in each); NaN for a file without
    /// one. An import of several extracts keeps each one's extent apart: the space between them is none of theirs.
    double *node_extents;
    /// Called with the callbacks' context; may be NULL.
    cosm_progress_callback progress;
} cosm_options;

typedef struct cosm_counts {
    uint64_t nodes;
    uint64_t ways;
    uint64_t relations;
    /// The last element read before an error, to locate it (type 0 when none was read).
    cosm_element_type last_element_type;
    int64_t last_element_id;
    /// When the data was current, in seconds since 1970: the newest element's timestamp, as osm2pgsql records it
    /// for Nominatim (`current_timestamp`); 0 when the elements carry none.
    int64_t data_timestamp;
    /// The node store the read used (never COSM_NODE_STORE_AUTOMATIC once nodes were read).
    cosm_node_store node_store;
    /// cosm_read_files: the file being read when the read ended (an index into its paths), to name it in an error.
    size_t file_index;
} cosm_counts;

typedef enum cosm_status {
    COSM_OK = 0,
    /// The callback asked to stop.
    COSM_STOPPED = 1,
    /// The file could not be opened or read (the message says why).
    COSM_IO_ERROR = 2,
    /// The file is not valid OSM data (the message says where and why).
    COSM_DATA_ERROR = 3,
    /// Anything else (out of memory, an internal error).
    COSM_INTERNAL_ERROR = 4,
    /// The node location index's file could not be created in options->temporary_directory or at
    /// options->nodes_file, or the disk has no room for it.
    COSM_TEMPORARY_FILE_ERROR = 5,
} cosm_status;

/// Reads the file at `path` in two passes (multipolygon/boundary relations, then everything), calling
/// `element` for every element of interest and `warning` for every counted fault. On failure, writes a
/// message (NUL-terminated, truncated to error_size) to `error`.
cosm_status cosm_read(const char *path, const cosm_options *options, cosm_element_callback element,
                      cosm_warning_callback warning, void *context, cosm_counts *counts, char *error,
                      size_t error_size);

/// Reads several files as one (neighbouring extracts): objects in the order of type and id, an object that more
/// than one file holds once, in its newest version, as `osmium merge` writes them; each file must be sorted by type
/// and id. `formats[i]` is file i's format name (NULL: options->format). Otherwise as cosm_read; counts->file_index
/// says which file an error came from.
cosm_status cosm_read_files(const char *const *paths, const char *const *formats, size_t file_count, const cosm_options *options,
                            cosm_element_callback element, cosm_warning_callback warning, void *context, cosm_counts *counts,
                            char *error, size_t error_size);

#ifdef __cplusplus
}
#endif

#endif
