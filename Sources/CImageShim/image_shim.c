#include "image_shim.h"

#include <png.h>
#include <zlib.h>
#include <stdio.h>
#include <jpeglib.h>
#include <jerror.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Hot loops are compiled for AVX2 and for baseline x86-64; the loader picks one per CPU. */
#if defined(__x86_64__) && defined(__clang__)
#define BELAY_VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define BELAY_VECTOR_CLONES
#endif

static void reset(belay_image_status *status) {
    status->failure = BELAY_IMAGE_FAILURE_NONE;
    status->message[0] = 0;
}

static void set_message(belay_image_status *status, const char *format, ...) {
    if (status->failure == BELAY_IMAGE_FAILURE_NONE) status->failure = BELAY_IMAGE_FAILURE_CORRUPT;
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(status->message, sizeof status->message, format, arguments);
    va_end(arguments);
}

void belay_image_free(void *pointer) { free(pointer); }

/* MARK: - libpng plumbing */

typedef struct png_memory_reader {
    const uint8_t *data;
    size_t size;
    size_t offset;
} png_memory_reader;

typedef struct png_memory_writer {
    uint8_t *data;
    size_t size;
    size_t capacity;
} png_memory_writer;

static void png_read_from_memory(png_structp png, png_bytep destination, png_size_t length) {
    png_memory_reader *reader = png_get_io_ptr(png);
    if (length > reader->size - reader->offset) {
        belay_image_status *status = png_get_error_ptr(png);
        status->failure = BELAY_IMAGE_FAILURE_TRUNCATED;
        png_error(png, "the file ends before the image does");
    }
    memcpy(destination, reader->data + reader->offset, length);
    reader->offset += length;
}

static void png_write_to_memory(png_structp png, png_bytep source, png_size_t length) {
    png_memory_writer *writer = png_get_io_ptr(png);
    if (writer->size + length > writer->capacity) {
        size_t capacity = writer->capacity ? writer->capacity * 2 : 1 << 16;
        while (capacity < writer->size + length) capacity *= 2;
        uint8_t *grown = realloc(writer->data, capacity);
        if (!grown) png_error(png, "out of memory");
        writer->data = grown;
        writer->capacity = capacity;
    }
    memcpy(writer->data + writer->size, source, length);
    writer->size += length;
}

static void png_flush_nothing(png_structp png) { (void)png; }

static void png_record_error(png_structp png, png_const_charp message) {
    belay_image_status *status = png_get_error_ptr(png);
    set_message(status, "%s", message);
    png_longjmp(png, 1);
}

static void png_ignore_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

static png_structp png_reader_create(belay_image_status *status) {
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, status, png_record_error,
                                             png_ignore_warning);
    if (!png) set_message(status, "libpng could not allocate a decoder");
    return png;
}

int belay_png_read_size(const uint8_t *data, size_t size,
                        uint32_t *width, uint32_t *height, belay_image_status *status) {
    reset(status);
    png_structp png = png_reader_create(status);
    if (!png) return -1;
    png_infop info = png_create_info_struct(png);
    png_memory_reader reader = {data, size, 0};
    if (!info || setjmp(png_jmpbuf(png))) {
        if (!status->message[0]) set_message(status, "libpng could not allocate a decoder");
        png_destroy_read_struct(&png, &info, NULL);
        return -1;
    }
    png_set_read_fn(png, &reader, png_read_from_memory);
    png_read_info(png, info);
    *width = png_get_image_width(png, info);
    *height = png_get_image_height(png, info);
    png_destroy_read_struct(&png, &info, NULL);
    return 0;
}

int belay_png_decode_rgba(const uint8_t *data, size_t size,
                          uint8_t *rgba, size_t rgba_size, belay_image_status *status) {
    reset(status);
    png_structp png = png_reader_create(status);
    if (!png) return -1;
    png_infop info = png_create_info_struct(png);
    png_memory_reader reader = {data, size, 0};
    png_bytep *volatile rows = NULL;
    if (!info || setjmp(png_jmpbuf(png))) {
        if (!status->message[0]) set_message(status, "libpng could not allocate a decoder");
        free(rows);
        png_destroy_read_struct(&png, &info, NULL);
        return -1;
    }
    png_set_read_fn(png, &reader, png_read_from_memory);
    png_read_info(png, info);
    png_uint_32 width = png_get_image_width(png, info);
    png_uint_32 height = png_get_image_height(png, info);
    if ((size_t)width * height * 4 != rgba_size) {
        png_error(png, "image size differs from the size read before");
    }
    int color_type = png_get_color_type(png, info);
    png_set_expand(png);  /* palette to RGB, gray below 8 bits to 8 bits, tRNS to alpha */
    png_set_strip_16(png);
    if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA) {
        png_set_gray_to_rgb(png);
    }
    if (!(color_type & PNG_COLOR_MASK_ALPHA) && !png_get_valid(png, info, PNG_INFO_tRNS)) {
        png_set_filler(png, 0xFF, PNG_FILLER_AFTER);
    }
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)width * 4) {
        png_error(png, "unsupported pixel layout after conversion to RGBA");
    }
    rows = malloc(sizeof(png_bytep) * height);
    if (!rows) png_error(png, "out of memory");
    for (png_uint_32 y = 0; y < height; y++) rows[y] = rgba + (size_t)y * width * 4;
    png_read_image(png, rows);
    png_read_end(png, NULL);
    free(rows);
    png_destroy_read_struct(&png, &info, NULL);
    return 0;
}

int belay_png_encode_libpng(const uint8_t *pixels, uint32_t width, uint32_t height, int channels,
                            int level, int filters, int strategy,
                            uint8_t **out, size_t *out_size, belay_image_status *status) {
    reset(status);
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, status, png_record_error,
                                              png_ignore_warning);
    if (!png) {
        set_message(status, "libpng could not allocate an encoder");
        return -1;
    }
    png_infop info = png_create_info_struct(png);
    png_memory_writer writer = {NULL, 0, 0};
    if (!info || setjmp(png_jmpbuf(png))) {
        if (!status->message[0]) set_message(status, "libpng could not allocate an encoder");
        free(writer.data);
        png_destroy_write_struct(&png, &info);
        return -1;
    }
    png_set_write_fn(png, &writer, png_write_to_memory, png_flush_nothing);
    png_set_IHDR(png, info, width, height, 8,
                 channels == 4 ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(png, level);
    png_set_compression_strategy(png, strategy);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, filters);
    png_write_info(png, info);
    for (uint32_t y = 0; y < height; y++) {
        png_write_row(png, pixels + (size_t)y * width * channels);
    }
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    *out = writer.data;
    *out_size = writer.size;
    return 0;
}

/* MARK: - PNG row filters */

static inline __attribute__((always_inline)) uint8_t paeth_predictor(int a, int b, int c) {
    int p = a + b - c;
    int pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    if (pa <= pb && pa <= pc) return (uint8_t)a;
    return (uint8_t)(pb <= pc ? b : c);
}

/* The cost of a filtered row: the sum of its bytes read as signed magnitudes. */
static inline __attribute__((always_inline)) uint32_t row_cost(const uint8_t *row, uint32_t length) {
    uint32_t sum = 0;
    for (uint32_t i = 0; i < length; i++) {
        int8_t value = (int8_t)row[i];
        sum += (uint32_t)(value < 0 ? -value : value);
    }
    return sum;
}

static inline __attribute__((always_inline)) void filter_none(const uint8_t *cur, uint32_t n, uint8_t *out) { memcpy(out, cur, n); }

static inline __attribute__((always_inline)) void filter_sub(const uint8_t *cur, uint32_t n, uint32_t bpp, uint8_t *out) {
    for (uint32_t i = 0; i < bpp && i < n; i++) out[i] = cur[i];
    for (uint32_t i = bpp; i < n; i++) out[i] = (uint8_t)(cur[i] - cur[i - bpp]);
}

static inline __attribute__((always_inline)) void filter_up(const uint8_t *cur, const uint8_t *prev, uint32_t n, uint8_t *out) {
    if (!prev) { memcpy(out, cur, n); return; }
    for (uint32_t i = 0; i < n; i++) out[i] = (uint8_t)(cur[i] - prev[i]);
}

static inline __attribute__((always_inline)) void filter_average(const uint8_t *cur, const uint8_t *prev, uint32_t n, uint32_t bpp,
                           uint8_t *out) {
    if (!prev) {
        for (uint32_t i = 0; i < bpp && i < n; i++) out[i] = cur[i];
        for (uint32_t i = bpp; i < n; i++) out[i] = (uint8_t)(cur[i] - (cur[i - bpp] >> 1));
        return;
    }
    for (uint32_t i = 0; i < bpp && i < n; i++) out[i] = (uint8_t)(cur[i] - (prev[i] >> 1));
    for (uint32_t i = bpp; i < n; i++) {
        out[i] = (uint8_t)(cur[i] - (uint8_t)(((unsigned)cur[i - bpp] + prev[i]) >> 1));
    }
}

static inline __attribute__((always_inline)) void filter_paeth(const uint8_t *cur, const uint8_t *prev, uint32_t n, uint32_t bpp,
                         uint8_t *out) {
    if (!prev) { filter_sub(cur, n, bpp, out); return; }
    for (uint32_t i = 0; i < bpp && i < n; i++) out[i] = (uint8_t)(cur[i] - prev[i]);
    for (uint32_t i = bpp; i < n; i++) {
        out[i] = (uint8_t)(cur[i] - paeth_predictor(cur[i - bpp], prev[i], prev[i - bpp]));
    }
}

static inline __attribute__((always_inline)) void filter_row(int filter, const uint8_t *cur, const uint8_t *prev, uint32_t n,
                       uint32_t bpp, uint8_t *out) {
    switch (filter) {
    case BELAY_PNG_FILTER_SUB: filter_sub(cur, n, bpp, out); break;
    case BELAY_PNG_FILTER_UP: filter_up(cur, prev, n, out); break;
    case BELAY_PNG_FILTER_AVERAGE: filter_average(cur, prev, n, bpp, out); break;
    case BELAY_PNG_FILTER_PAETH: filter_paeth(cur, prev, n, bpp, out); break;
    default: filter_none(cur, n, out); break;
    }
}

BELAY_VECTOR_CLONES
void belay_png_filter_rows(const uint8_t *rows, size_t stride, const uint8_t *previous_row,
                           uint32_t row_count, uint32_t row_bytes, uint32_t bytes_per_pixel,
                           int filter, uint8_t *scratch, uint8_t *out) {
    const uint8_t *prev = previous_row;
    for (uint32_t y = 0; y < row_count; y++) {
        const uint8_t *cur = rows + (size_t)y * stride;
        uint8_t *line = out + (size_t)y * (row_bytes + 1);
        if (filter != BELAY_PNG_FILTER_ADAPTIVE) {
            line[0] = (uint8_t)filter;
            filter_row(filter, cur, prev, row_bytes, bytes_per_pixel, line + 1);
        } else if (prev && memcmp(cur, prev, row_bytes) == 0) {
            /* A repeated row (flat backgrounds, gradients): Up makes it all zeros, the least
             * any filter can cost, so the trials can be skipped. */
            line[0] = BELAY_PNG_FILTER_UP;
            memset(line + 1, 0, row_bytes);
        } else {
            int best = BELAY_PNG_FILTER_NONE;
            uint32_t best_cost = row_cost(cur, row_bytes);
            for (int candidate = BELAY_PNG_FILTER_SUB; candidate <= BELAY_PNG_FILTER_PAETH && best_cost > 0;
                 candidate++) {
                uint8_t *trial = scratch + (size_t)(candidate - 1) * row_bytes;
                filter_row(candidate, cur, prev, row_bytes, bytes_per_pixel, trial);
                uint32_t cost = row_cost(trial, row_bytes);
                if (cost < best_cost) {
                    best_cost = cost;
                    best = candidate;
                }
            }
            line[0] = (uint8_t)best;
            if (best == BELAY_PNG_FILTER_NONE) memcpy(line + 1, cur, row_bytes);
            else memcpy(line + 1, scratch + (size_t)(best - 1) * row_bytes, row_bytes);
        }
        prev = cur;
    }
}

/* MARK: - Resampling kernels */

BELAY_VECTOR_CLONES
void belay_resample_rows(const uint8_t *src, size_t src_stride, uint8_t *dst, size_t dst_stride,
                         uint32_t row_bytes, uint32_t out_rows, const int32_t *starts,
                         const int32_t *counts, const int32_t *weights, uint32_t weight_stride,
                         int32_t *accumulator) {
    for (uint32_t y = 0; y < out_rows; y++) {
        const int32_t *taps = weights + (size_t)y * weight_stride;
        const uint8_t *first = src + (size_t)starts[y] * src_stride;
        for (uint32_t i = 0; i < row_bytes; i++) accumulator[i] = 1 << 13;  /* rounds the >> 14 */
        for (int32_t k = 0; k < counts[y]; k++) {
            const uint8_t *row = first + (size_t)k * src_stride;
            int32_t weight = taps[k];
            for (uint32_t i = 0; i < row_bytes; i++) accumulator[i] += (int32_t)row[i] * weight;
        }
        uint8_t *out = dst + (size_t)y * dst_stride;
        for (uint32_t i = 0; i < row_bytes; i++) {
            int32_t value = accumulator[i] >> 14;
            out[i] = (uint8_t)(value < 0 ? 0 : (value > 255 ? 255 : value));
        }
    }
}

static void resample_columns_scalar(const uint8_t *src, size_t src_stride, uint8_t *dst,
                                    size_t dst_stride, uint32_t rows, uint32_t out_width,
                                    const int32_t *starts, const int32_t *counts,
                                    const int16_t *weights, uint32_t weight_stride) {
    for (uint32_t y = 0; y < rows; y++) {
        const uint8_t *line = src + (size_t)y * src_stride;
        uint8_t *out = dst + (size_t)y * dst_stride;
        for (uint32_t x = 0; x < out_width; x++) {
            const uint8_t *pixel = line + (size_t)starts[x] * 4;
            const int16_t *taps = weights + (size_t)x * weight_stride;
            int32_t sums[4] = {1 << 13, 1 << 13, 1 << 13, 1 << 13};
            for (int32_t k = 0; k < counts[x]; k++, pixel += 4) {
                for (int c = 0; c < 4; c++) sums[c] += (int32_t)pixel[c] * taps[k];
            }
            uint8_t channels[4];
            for (int c = 0; c < 4; c++) {
                int32_t value = sums[c] >> 14;
                channels[c] = (uint8_t)(value < 0 ? 0 : (value > 255 ? 255 : value));
            }
            for (int c = 0; c < 3; c++) out[x * 4 + c] = channels[c] < channels[3] ? channels[c] : channels[3];
            out[x * 4 + 3] = channels[3];
        }
    }
}

#if defined(__x86_64__) && defined(__clang__)
#include <immintrin.h>

/* Two taps at a time with pmaddwd: the two pixels' channels interleaved as 16-bit
 * [r0 r1 g0 g1 b0 b1 a0 a1] against the weights [w0 w1] repeated. */
__attribute__((target("sse4.1")))
static void resample_columns_sse41(const uint8_t *src, size_t src_stride, uint8_t *dst,
                                   size_t dst_stride, uint32_t rows, uint32_t out_width,
                                   const int32_t *starts, const int32_t *counts,
                                   const int16_t *weights, uint32_t weight_stride) {
    const __m128i interleave = _mm_setr_epi8(0, -1, 4, -1, 1, -1, 5, -1, 2, -1, 6, -1, 3, -1, 7, -1);
    const __m128i alpha_broadcast = _mm_set1_epi8(3);
    for (uint32_t y = 0; y < rows; y++) {
        const uint8_t *line = src + (size_t)y * src_stride;
        uint8_t *out = dst + (size_t)y * dst_stride;
        for (uint32_t x = 0; x < out_width; x++) {
            const uint8_t *pixel = line + (size_t)starts[x] * 4;
            const int16_t *taps = weights + (size_t)x * weight_stride;
            int32_t count = counts[x], k = 0;
            __m128i sums = _mm_set1_epi32(1 << 13);
            for (; k + 1 < count; k += 2) {
                __m128i pair = _mm_shuffle_epi8(_mm_loadl_epi64((const __m128i *)(pixel + k * 4)), interleave);
                int32_t weight_pair;
                memcpy(&weight_pair, taps + k, 4);
                sums = _mm_add_epi32(sums, _mm_madd_epi16(pair, _mm_set1_epi32(weight_pair)));
            }
            if (k < count) {
                int32_t last;
                memcpy(&last, pixel + k * 4, 4);
                __m128i widened = _mm_cvtepu8_epi32(_mm_cvtsi32_si128(last));
                sums = _mm_add_epi32(sums, _mm_mullo_epi32(widened, _mm_set1_epi32(taps[k])));
            }
            sums = _mm_srai_epi32(sums, 14);
            __m128i bytes = _mm_packus_epi16(_mm_packs_epi32(sums, sums), sums);
            /* Premultiplied: no colour channel above alpha (filter overshoot). */
            bytes = _mm_min_epu8(bytes, _mm_shuffle_epi8(bytes, alpha_broadcast));
            int32_t packed = _mm_cvtsi128_si32(bytes);
            memcpy(out + x * 4, &packed, 4);
        }
    }
}
#endif

void belay_resample_columns(const uint8_t *src, size_t src_stride, uint8_t *dst, size_t dst_stride,
                            uint32_t rows, uint32_t out_width, const int32_t *starts,
                            const int32_t *counts, const int16_t *weights, uint32_t weight_stride) {
#if defined(__x86_64__) && defined(__clang__)
    if (__builtin_cpu_supports("sse4.1")) {
        resample_columns_sse41(src, src_stride, dst, dst_stride, rows, out_width, starts, counts,
                               weights, weight_stride);
        return;
    }
#endif
    resample_columns_scalar(src, src_stride, dst, dst_stride, rows, out_width, starts, counts,
                            weights, weight_stride);
}

static inline __attribute__((always_inline)) void composite_pixel(const uint8_t *in, uint8_t *out) {
    unsigned alpha = in[3], inverse = 255 - alpha;
    if (alpha == 0) return;
    for (int c = 0; c < 4; c++) {
        unsigned product = (unsigned)out[c] * inverse + 128;
        out[c] = (uint8_t)(in[c] + ((product + (product >> 8)) >> 8));
    }
}

void belay_composite_over(const uint8_t *source, uint8_t *destination, size_t count) {
    size_t i = 0;
#if defined(__SSE2__)
    /* Four pixels at a time. With alpha 255 the blend is the source exactly (the destination
     * times 0 rounds to 0), so opaque groups are copied; alpha 0 keeps the destination. */
    const __m128i zero = _mm_setzero_si128();
    const __m128i alpha_bytes = _mm_set1_epi32((int)0xFF000000u);
    const __m128i all_255 = _mm_set1_epi16(255), rounding = _mm_set1_epi16(128);
    for (; i + 4 <= count; i += 4) {
        __m128i in = _mm_loadu_si128((const __m128i *)(source + i * 4));
        __m128i opaque = _mm_cmpeq_epi8(_mm_and_si128(in, alpha_bytes), alpha_bytes);
        if ((_mm_movemask_epi8(opaque) & 0x8888) == 0x8888) {
            _mm_storeu_si128((__m128i *)(destination + i * 4), in);
            continue;
        }
        __m128i out = _mm_loadu_si128((const __m128i *)(destination + i * 4));
        __m128i in_low = _mm_unpacklo_epi8(in, zero), in_high = _mm_unpackhi_epi8(in, zero);
        __m128i alpha_low = _mm_shufflehi_epi16(_mm_shufflelo_epi16(in_low, 0xFF), 0xFF);
        __m128i alpha_high = _mm_shufflehi_epi16(_mm_shufflelo_epi16(in_high, 0xFF), 0xFF);
        __m128i product_low = _mm_add_epi16(_mm_mullo_epi16(_mm_unpacklo_epi8(out, zero), _mm_sub_epi16(all_255, alpha_low)), rounding);
        __m128i product_high = _mm_add_epi16(_mm_mullo_epi16(_mm_unpackhi_epi8(out, zero), _mm_sub_epi16(all_255, alpha_high)), rounding);
        __m128i scaled_low = _mm_srli_epi16(_mm_add_epi16(product_low, _mm_srli_epi16(product_low, 8)), 8);
        __m128i scaled_high = _mm_srli_epi16(_mm_add_epi16(product_high, _mm_srli_epi16(product_high, 8)), 8);
        /* Added as bytes, wrapping, like the scalar path. */
        __m128i blended = _mm_add_epi8(in, _mm_packus_epi16(scaled_low, scaled_high));
        __m128i transparent = _mm_cmpeq_epi32(_mm_and_si128(in, alpha_bytes), zero);
        __m128i result = _mm_or_si128(_mm_and_si128(transparent, out), _mm_andnot_si128(transparent, blended));
        _mm_storeu_si128((__m128i *)(destination + i * 4), result);
    }
#endif
    for (; i < count; i++) composite_pixel(source + i * 4, destination + i * 4);
}

BELAY_VECTOR_CLONES
void belay_rgba_to_rgb(const uint8_t *rgba, size_t count, uint8_t *rgb) {
    for (size_t i = 0; i < count; i++) {
        rgb[i * 3] = rgba[i * 4];
        rgb[i * 3 + 1] = rgba[i * 4 + 1];
        rgb[i * 3 + 2] = rgba[i * 4 + 2];
    }
}

void belay_unpremultiply(const uint8_t *premultiplied, size_t count, uint8_t *straight) {
    for (size_t i = 0; i < count; i++) {
        const uint8_t *in = premultiplied + i * 4;
        uint8_t *out = straight + i * 4;
        uint8_t alpha = in[3];
        if (alpha == 255 || alpha == 0) {
            memcpy(out, in, 4);
        } else {
            for (int c = 0; c < 3; c++) {
                unsigned value = ((unsigned)in[c] * 255 + alpha / 2) / alpha;
                out[c] = (uint8_t)(value > 255 ? 255 : value);
            }
            out[3] = alpha;
        }
    }
}

/* MARK: - zlib */

/* zlib slides its window, and rewrites its whole hash table (head and prev, 96K entries at
 * memLevel 8), each time 32 KiB more input has passed the first 64 KiB: with the Huffman-only and
 * run-length strategies, which never read the hash, that rewrite is pure cost (an eighth of a
 * story's CPU). A full flush before the window fills starts the window and the hash afresh
 * instead, for an empty stored block (5 bytes) and one block boundary per chunk. */
enum { BELAY_DEFLATE_UNSLID_CHUNK = 65000 };

size_t belay_deflate_segment_bound(size_t size) {
    /* deflateBound's worst case for stored blocks, plus the sync flush's empty stored block and
     * each full flush's block boundary. */
    return size + (size >> 12) + (size >> 14) + (size >> 25) + 64 + (size / BELAY_DEFLATE_UNSLID_CHUNK + 1) * 16;
}

int belay_deflate_segment(const uint8_t *input, size_t size, int level, int strategy,
                          uint8_t *out, size_t out_capacity, size_t *out_size,
                          belay_image_status *status) {
    reset(status);
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    /* Huffman-only and run-length coding keep no history beyond one byte, so they are fed in
     * chunks that each start the window afresh; memLevel 9 doubles the symbols per block
     * (fewer code tables to build and send). The matching strategies keep the whole history. */
    int unslid = strategy == Z_HUFFMAN_ONLY || strategy == Z_RLE;
    int result = deflateInit2(&stream, level, Z_DEFLATED, -15, unslid ? 9 : 8, strategy);
    if (result != Z_OK) {
        set_message(status, "zlib could not start a deflate stream (level %d, strategy %d): %s",
                    level, strategy, stream.msg ? stream.msg : "invalid settings");
        return -1;
    }
    stream.next_out = out;
    stream.avail_out = (uInt)(out_capacity > UINT32_MAX ? UINT32_MAX : out_capacity);
    /* avail_in is 32 bits wide: the matching strategies get large segments in pieces too. */
    size_t chunk = unslid ? BELAY_DEFLATE_UNSLID_CHUNK : (size_t)1 << 30;
    size_t remaining = size;
    const uint8_t *next = input;
    do {
        uInt piece = (uInt)(remaining > chunk ? chunk : remaining);
        stream.next_in = (Bytef *)next;
        stream.avail_in = piece;
        remaining -= piece;
        next += piece;
        int flush = remaining == 0 ? Z_SYNC_FLUSH : unslid ? Z_FULL_FLUSH : Z_NO_FLUSH;
        result = deflate(&stream, flush);
        /* No room left may mean a flush not written out whole. */
        if (result != Z_OK || stream.avail_in != 0 || stream.avail_out == 0) {
            set_message(status, "zlib deflate failed: %s",
                        stream.msg ? stream.msg : "output buffer too small");
            deflateEnd(&stream);
            return -1;
        }
    } while (remaining);
    *out_size = (size_t)(stream.next_out - out);
    deflateEnd(&stream);
    return 0;
}

size_t belay_run_bytes(const uint8_t *data, size_t size, size_t limit) {
    /* Whole 16-byte chunks of one repeated value: short runs do not count (as matches they
     * cost more bits than as literals). */
    size_t count = 0;
    for (size_t i = 0; i + 16 <= size && count < limit; i += 16) {
        uint64_t first, second;
        memcpy(&first, data + i, 8);
        memcpy(&second, data + i + 8, 8);
        uint64_t pattern = (uint64_t)data[i] * 0x0101010101010101ull;
        count += (first == pattern && second == pattern) ? 16 : 0;
    }
    return count;
}

uint32_t belay_adler32_combine(uint32_t first, uint32_t second, size_t second_length) {
    return (uint32_t)adler32_combine(first, second, (z_off_t)second_length);
}

/* MARK: - libjpeg */

typedef struct jpeg_failure {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
    belay_image_status *status;
} jpeg_failure;

static void jpeg_record_error(j_common_ptr info) {
    jpeg_failure *failure = (jpeg_failure *)info->err;
    char message[JMSG_LENGTH_MAX];
    if (info->err->msg_code == JWRN_JPEG_EOF || info->err->msg_code == JERR_INPUT_EOF) {
        failure->status->failure = BELAY_IMAGE_FAILURE_TRUNCATED;
    } else if (info->err->msg_code == JERR_EMPTY_IMAGE) {
        failure->status->failure = BELAY_IMAGE_FAILURE_EMPTY;
    }
    (*info->err->format_message)(info, message);
    set_message(failure->status, "%s", message);
    longjmp(failure->jump, 1);
}

/* Warnings (level -1) mean corrupt data that libjpeg would paper over with grey: refuse them. */
static void jpeg_record_message(j_common_ptr info, int level) {
    if (level < 0) jpeg_record_error(info);
}

int belay_jpeg_read_size(const uint8_t *data, size_t size,
                         uint32_t *width, uint32_t *height, belay_image_status *status) {
    reset(status);
    struct jpeg_decompress_struct info;
    jpeg_failure failure;
    failure.status = status;
    info.err = jpeg_std_error(&failure.manager);
    failure.manager.error_exit = jpeg_record_error;
    failure.manager.emit_message = jpeg_record_message;
    if (setjmp(failure.jump)) {
        jpeg_destroy_decompress(&info);
        return -1;
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, data, (unsigned long)size);
    jpeg_read_header(&info, TRUE);
    *width = info.image_width;
    *height = info.image_height;
    jpeg_destroy_decompress(&info);
    return 0;
}

int belay_jpeg_decode_rgba(const uint8_t *data, size_t size,
                           uint8_t *rgba, size_t rgba_size, belay_image_status *status) {
    reset(status);
    struct jpeg_decompress_struct info;
    jpeg_failure failure;
    failure.status = status;
    info.err = jpeg_std_error(&failure.manager);
    failure.manager.error_exit = jpeg_record_error;
    failure.manager.emit_message = jpeg_record_message;
    if (setjmp(failure.jump)) {
        jpeg_destroy_decompress(&info);
        return -1;
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, data, (unsigned long)size);
    jpeg_read_header(&info, TRUE);
    info.out_color_space = JCS_EXT_RGBA;
    jpeg_start_decompress(&info);
    if ((size_t)info.output_width * info.output_height * 4 != rgba_size ||
        info.output_components != 4) {
        set_message(status, "image size differs from the size read before");
        jpeg_destroy_decompress(&info);
        return -1;
    }
    while (info.output_scanline < info.output_height) {
        JSAMPROW row = rgba + (size_t)info.output_scanline * info.output_width * 4;
        jpeg_read_scanlines(&info, &row, 1);
    }
    jpeg_finish_decompress(&info);
    jpeg_destroy_decompress(&info);
    return 0;
}

int belay_jpeg_encode_rgb(const uint8_t *rgb, uint32_t width, uint32_t height, int quality,
                          uint8_t **out, size_t *out_size, belay_image_status *status) {
    reset(status);
    struct jpeg_compress_struct info;
    jpeg_failure failure;
    unsigned char *volatile buffer = NULL;
    unsigned long buffer_size = 0;
    failure.status = status;
    info.err = jpeg_std_error(&failure.manager);
    failure.manager.error_exit = jpeg_record_error;
    failure.manager.emit_message = jpeg_record_message;
    if (setjmp(failure.jump)) {
        jpeg_destroy_compress(&info);
        free(buffer);
        return -1;
    }
    jpeg_create_compress(&info);
    jpeg_mem_dest(&info, (unsigned char **)&buffer, &buffer_size);
    info.image_width = width;
    info.image_height = height;
    info.input_components = 3;
    info.in_color_space = JCS_RGB;
    jpeg_set_defaults(&info);
    jpeg_set_quality(&info, quality, TRUE);
    jpeg_start_compress(&info, TRUE);
    while (info.next_scanline < info.image_height) {
        JSAMPROW row = (JSAMPROW)(rgb + (size_t)info.next_scanline * width * 3);
        jpeg_write_scanlines(&info, &row, 1);
    }
    jpeg_finish_compress(&info);
    jpeg_destroy_compress(&info);
    *out = buffer;
    *out_size = buffer_size;
    return 0;
}
