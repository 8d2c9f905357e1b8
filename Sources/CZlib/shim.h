#include <zlib.h>

/// inflateInit2 for a gzip stream (a zlib macro, which Swift cannot call): 15 bits of window,
/// plus 16 to read a gzip header and trailer rather than zlib's.
static inline int coursebook_inflate_gzip(z_stream *stream) {
    return inflateInit2(stream, 15 + 16);
}
