#ifndef BELAY_IMAGE_SHIM_H
#define BELAY_IMAGE_SHIM_H
/*
 * PNG, JPEG and zlib calls for Belay's renderer.
 *
 * libpng and libjpeg report errors by longjmp; every setjmp lives in image_shim.c, so a longjmp
 * never crosses a Swift frame. Each function returns 0 on success and -1 on failure, with the
 * library's message in `status->message`. zlib's initialisers are macros, which Swift cannot
 * call, so they are wrapped here too. The renderer's hottest loops (PNG row filtering, the
 * Lanczos resampler's convolutions, un-premultiplying and RGBA-to-RGB conversion, segment
 * deflate for multi-core PNG compression) are here as well, compiled with -O2 in every
 * configuration.
 */
#include <stddef.h>
#include <stdint.h>

/// Why a call failed, beyond the library's message.
enum {
    BELAY_IMAGE_FAILURE_NONE = 0,
    BELAY_IMAGE_FAILURE_CORRUPT = 1,    /* the data is not a valid image of its format */
    BELAY_IMAGE_FAILURE_TRUNCATED = 2,  /* the data ends before the image does */
    BELAY_IMAGE_FAILURE_EMPTY = 3,      /* the image has no pixels (zero width or height) */
    BELAY_IMAGE_FAILURE_ENCODER = 4,    /* an encoder could not allocate or was misconfigured */
};

typedef struct belay_image_status {
    /// One of BELAY_IMAGE_FAILURE_*.
    int failure;
    /// What the library reported, NUL-terminated; empty on success.
    char message[256];
} belay_image_status;

/* MARK: PNG decoding (libpng) */

/// Reads the IHDR of a PNG held in memory.
int belay_png_read_size(const uint8_t *data, size_t size,
                        uint32_t *width, uint32_t *height, belay_image_status *status);

/// Decodes a whole PNG into straight (not premultiplied) 8-bit RGBA rows, `width * 4` bytes each.
/// Every colour type, bit depth and interlacing is converted; `rgba_size` must be exactly
/// width * height * 4 for the size `belay_png_read_size` reported.
int belay_png_decode_rgba(const uint8_t *data, size_t size,
                          uint8_t *rgba, size_t rgba_size, belay_image_status *status);

/* MARK: PNG encoding through libpng (the reference encoder) */

/// Encodes straight RGBA (`channels` 4) or RGB (`channels` 3) rows with libpng's own writer.
/// `filters` is a mask of PNG_FILTER_* values; `strategy` a zlib strategy. The result is
/// malloc'ed: release it with `belay_image_free`.
int belay_png_encode_libpng(const uint8_t *pixels, uint32_t width, uint32_t height, int channels,
                            int level, int filters, int strategy,
                            uint8_t **out, size_t *out_size, belay_image_status *status);

/* MARK: PNG row filtering */

/// PNG filter types, plus `BELAY_PNG_FILTER_ADAPTIVE`: per row, the type whose output has the
/// smallest sum of absolute values (libpng's and Pillow's heuristic).
enum {
    BELAY_PNG_FILTER_NONE = 0,
    BELAY_PNG_FILTER_SUB = 1,
    BELAY_PNG_FILTER_UP = 2,
    BELAY_PNG_FILTER_AVERAGE = 3,
    BELAY_PNG_FILTER_PAETH = 4,
    BELAY_PNG_FILTER_ADAPTIVE = 5,
};

/// Filters `row_count` rows of `row_bytes` bytes (`stride` apart) into `out`, each output row
/// being its filter-type byte followed by `row_bytes` filtered bytes. `previous_row` is the
/// unfiltered row above the first one, or NULL at the top of the image. `scratch` must hold
/// 5 * row_bytes bytes (used by the adaptive filter only).
void belay_png_filter_rows(const uint8_t *rows, size_t stride, const uint8_t *previous_row,
                           uint32_t row_count, uint32_t row_bytes, uint32_t bytes_per_pixel,
                           int filter, uint8_t *scratch, uint8_t *out);

/* MARK: Resampling kernels
 *
 * The convolution loops of Belay's Lanczos resampler. They are here, not in Swift, so that
 * the vertical pass is compiled twice (AVX2 and baseline x86-64, chosen at run time) and
 * vectorises with 32-bit multiplies, which baseline x86-64 lacks. */

/// Vertical convolution: output row y (`out_rows` of them, `row_bytes` bytes each, `dst_stride`
/// apart) is the weighted sum of the `counts[y]` source rows starting at row `starts[y]`
/// (`src_stride` apart), with the 14-bit fixed-point weights `weights[y * weight_stride + k]`,
/// rounded and clamped to 0...255. `accumulator` holds `row_bytes` 32-bit values.
void belay_resample_rows(const uint8_t *src, size_t src_stride, uint8_t *dst, size_t dst_stride,
                         uint32_t row_bytes, uint32_t out_rows, const int32_t *starts,
                         const int32_t *counts, const int32_t *weights, uint32_t weight_stride,
                         int32_t *accumulator);

/// Horizontal convolution of `rows` rows of RGBA pixels: output pixel x of a row is the
/// weighted sum of the `counts[x]` source pixels starting at pixel `starts[x]`, with weights
/// `weights[x * weight_stride + k]` (14-bit fixed point, 16-bit values), rounded and clamped to
/// 0...255, colour clamped to alpha (filter overshoot must not break premultiplication). Uses
/// SSE4.1 (two taps per multiply-add) when the CPU has it.
void belay_resample_columns(const uint8_t *src, size_t src_stride, uint8_t *dst, size_t dst_stride,
                            uint32_t rows, uint32_t out_width, const int32_t *starts,
                            const int32_t *counts, const int16_t *weights, uint32_t weight_stride);

/* MARK: Pixel conversions at the codec boundary */

/// Drops alpha: `count` RGBA pixels to RGB (premultiplied colour is colour over black).
void belay_rgba_to_rgb(const uint8_t *rgba, size_t count, uint8_t *rgb);

/// Composites `count` premultiplied RGBA pixels of `source` over those of `destination`
/// (Porter-Duff source-over, each channel `source + destination * (255 - alpha) / 255` rounded).
void belay_composite_over(const uint8_t *source, uint8_t *destination, size_t count);

/// Premultiplied RGBA to straight RGBA, rounding: `count` pixels.
void belay_unpremultiply(const uint8_t *premultiplied, size_t count, uint8_t *straight);

/* MARK: zlib */

/// Largest output `belay_deflate_segment` can produce for `size` input bytes.
size_t belay_deflate_segment_bound(size_t size);

/// Compresses one segment of a zlib stream as raw deflate ending with a sync flush (byte-aligned,
/// not final), so independently compressed segments concatenate into one valid stream; the
/// stream is closed by an empty final block. `strategy` is a zlib strategy (Z_RLE = 3).
int belay_deflate_segment(const uint8_t *input, size_t size, int level, int strategy,
                          uint8_t *out, size_t out_capacity, size_t *out_size,
                          belay_image_status *status);

/// How many bytes of `data` lie in 16-byte chunks of one repeated value: long runs, which tell
/// rows worth run-length matching (flat areas, gradients) from photographic ones. Counting stops
/// once `limit` is reached (the result is then at least `limit`, less than `limit + 16`).
size_t belay_run_bytes(const uint8_t *data, size_t size, size_t limit);

/// The Adler-32 of two concatenated pieces from the Adler-32s of each.
uint32_t belay_adler32_combine(uint32_t first, uint32_t second, size_t second_length);

/* MARK: JPEG (libjpeg-turbo) */

/// Reads the size of a JPEG held in memory.
int belay_jpeg_read_size(const uint8_t *data, size_t size,
                         uint32_t *width, uint32_t *height, belay_image_status *status);

/// Decodes a JPEG into 8-bit RGBA rows (alpha 255). Corrupt-data warnings are errors.
int belay_jpeg_decode_rgba(const uint8_t *data, size_t size,
                           uint8_t *rgba, size_t rgba_size, belay_image_status *status);

/// Encodes RGB rows (`width * 3` bytes each) as a baseline JPEG of the given quality (1–100).
/// The result is malloc'ed: release it with `belay_image_free`.
int belay_jpeg_encode_rgb(const uint8_t *rgb, uint32_t width, uint32_t height, int quality,
                          uint8_t **out, size_t *out_size, belay_image_status *status);

/// Releases a buffer returned by this shim.
void belay_image_free(void *pointer);

#endif
