#include <zlib.h>

/// inflateInit2 for a gzip stream (a zlib macro, which Swift cannot call): 15 bits of window,
/// plus 16 to read a gzip header and trailer rather than zlib's.
static inline int coursebook_inflate_gzip(z_stream *stream) {
    return inflateInit2(stream, 15 + 16);
}

/// deflateInit2 for a gzip stream at `level` (0 to 9): 15 bits of window plus 16 to write a gzip
/// header and trailer, zlib's default memory level and strategy.
static inline int coursebook_deflate_gzip(z_stream *stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}
