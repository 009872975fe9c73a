/*
 * Belay's run-length deflate encoder.
 *
 * It produces the kind of stream zlib's Z_RLE strategy produces (RFC 1951 blocks with dynamic
 * Huffman codes whose only matches are runs: distance 1), for PNG rows after filtering, where
 * the redundancy is in runs (zeros after a good filter, flat rows) and in the skew of byte
 * values, not in long-distance repeats. Doing only that, in two tight passes per block
 * (tokenise and count, then emit through a 64-bit bit buffer), makes it several times faster
 * than zlib's general deflate loop at the same output size. Every PNG Belay writes with it is
 * decoded by libpng in the tests.
 */
#include "image_shim.h"

#include <pthread.h>
#include <string.h>

enum {
    BLOCK_INPUT = 1 << 15,   /* input bytes per block: small blocks adapt their codes to the rows */
    MIN_RUN = 3,
    MAX_RUN = 258,
    LITERAL_LENGTH_CODES = 286,
    DISTANCE_CODES = 30,
    CODE_LENGTH_CODES = 19,
};

typedef struct bit_writer {
    uint8_t *out;
    size_t position;
    size_t capacity;
    uint64_t bits;
    unsigned count;
    int overflow;
} bit_writer;

static inline void put_bits(bit_writer *writer, uint32_t value, unsigned length) {
    writer->bits |= (uint64_t)value << writer->count;
    writer->count += length;
    if (writer->count >= 32) {
        if (writer->position + 4 <= writer->capacity) {
            uint32_t word = (uint32_t)writer->bits;
            writer->out[writer->position] = (uint8_t)word;
            writer->out[writer->position + 1] = (uint8_t)(word >> 8);
            writer->out[writer->position + 2] = (uint8_t)(word >> 16);
            writer->out[writer->position + 3] = (uint8_t)(word >> 24);
            writer->position += 4;
        } else {
            writer->overflow = 1;
        }
        writer->bits >>= 32;
        writer->count -= 32;
    }
}

/* Writes out whole bytes and pads the last partial byte with zeros. */
static void align_to_byte(bit_writer *writer) {
    while (writer->count > 0) {
        if (writer->position < writer->capacity) writer->out[writer->position++] = (uint8_t)writer->bits;
        else writer->overflow = 1;
        writer->bits >>= 8;
        writer->count = writer->count > 8 ? writer->count - 8 : 0;
    }
    writer->bits = 0;
}

/* The length code (257...285), extra bits and extra value of every run length 3...258. */
typedef struct length_code {
    uint16_t symbol;
    uint8_t extra_bits;
    uint8_t extra_value;
} length_code;

static const uint16_t length_base[29] = {3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
                                         35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const uint8_t length_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2,
                                         3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};

static length_code length_codes[MAX_RUN + 1];

static void fill_length_codes(void) {
    for (int code = 0; code < 29; code++) {
        int count = code == 28 ? 1 : 1 << length_extra[code];
        for (int offset = 0; offset < count; offset++) {
            int length = length_base[code] + offset;
            if (length > MAX_RUN) break;
            /* 258 has its own code (285) even though 284's range would reach it. */
            if (length == MAX_RUN && code != 28) continue;
            length_codes[length].symbol = (uint16_t)(257 + code);
            length_codes[length].extra_bits = length_extra[code];
            length_codes[length].extra_value = (uint8_t)offset;
        }
    }
}

/*
 * Huffman code lengths for `count` symbols with the given frequencies, none longer than
 * `limit` bits. A Huffman tree is built from the frequencies; when it is too deep the
 * frequencies are halved (staying non-zero) and it is built again, which flattens it. With
 * fewer than two used symbols, symbols are added so the code is complete (every decoder
 * accepts it).
 */
static void build_lengths(const uint32_t *frequencies_in, int count, int limit, uint8_t *lengths) {
    uint32_t frequencies[LITERAL_LENGTH_CODES];
    int used = 0;
    for (int i = 0; i < count; i++) {
        frequencies[i] = frequencies_in[i];
        if (frequencies[i]) used++;
    }
    for (int i = 0; used < 2 && i < count; i++) {
        if (!frequencies[i]) {
            frequencies[i] = 1;
            used++;
        }
    }
    for (;;) {
        /* Nodes: leaves 0..count-1, internal nodes after. Two-queue construction over leaves
         * sorted by frequency. */
        uint32_t weight[2 * LITERAL_LENGTH_CODES];
        int parent[2 * LITERAL_LENGTH_CODES];
        int leaves[LITERAL_LENGTH_CODES];
        int leaf_count = 0;
        for (int i = 0; i < count; i++) {
            if (frequencies[i]) {
                leaves[leaf_count++] = i;
                weight[i] = frequencies[i];
            }
        }
        /* Insertion sort by frequency (at most 286 items, a few times per block). */
        for (int i = 1; i < leaf_count; i++) {
            int symbol = leaves[i];
            int j = i - 1;
            while (j >= 0 && weight[leaves[j]] > weight[symbol]) {
                leaves[j + 1] = leaves[j];
                j--;
            }
            leaves[j + 1] = symbol;
        }
        int next_leaf = 0, next_internal = count, internal_end = count;
        for (int merged = 0; merged < leaf_count - 1; merged++) {
            int children[2];
            for (int c = 0; c < 2; c++) {
                if (next_leaf < leaf_count &&
                    (next_internal >= internal_end || weight[leaves[next_leaf]] <= weight[next_internal])) {
                    children[c] = leaves[next_leaf++];
                } else {
                    children[c] = next_internal++;
                }
            }
            weight[internal_end] = weight[children[0]] + weight[children[1]];
            parent[children[0]] = internal_end;
            parent[children[1]] = internal_end;
            internal_end++;
        }
        int root = internal_end - 1;
        int depth[2 * LITERAL_LENGTH_CODES];
        depth[root] = 0;
        for (int node = root - 1; node >= count; node--) depth[node] = depth[parent[node]] + 1;
        int deepest = 0;
        memset(lengths, 0, (size_t)count);
        for (int i = 0; i < leaf_count; i++) {
            int symbol = leaves[i];
            int length = depth[parent[symbol]] + 1;
            lengths[symbol] = (uint8_t)length;
            if (length > deepest) deepest = length;
        }
        if (deepest <= limit) return;
        for (int i = 0; i < count; i++) {
            if (frequencies[i]) frequencies[i] = (frequencies[i] >> 1) | 1;
        }
    }
}

/* Canonical codes for the lengths, bit-reversed because deflate sends codes MSB first into an
 * LSB-first bit stream. */
static void assign_codes(const uint8_t *lengths, int count, uint16_t *codes) {
    uint16_t length_count[16] = {0};
    uint16_t next[16];
    for (int i = 0; i < count; i++) length_count[lengths[i]]++;
    length_count[0] = 0;
    uint16_t code = 0;
    for (int bits = 1; bits < 16; bits++) {
        code = (uint16_t)((code + length_count[bits - 1]) << 1);
        next[bits] = code;
    }
    for (int i = 0; i < count; i++) {
        int length = lengths[i];
        if (!length) {
            codes[i] = 0;
            continue;
        }
        uint16_t value = next[length]++;
        uint16_t reversed = 0;
        for (int bit = 0; bit < length; bit++) reversed |= (uint16_t)(((value >> bit) & 1) << (length - 1 - bit));
        codes[i] = reversed;
    }
}

static const uint8_t code_length_order[CODE_LENGTH_CODES] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5,
                                                             11, 4, 12, 3, 13, 2, 14, 1, 15};

/* Writes one block: tokens are literals (0...255) or runs (256 + length - 3), counted by
 * symbol in `literal_frequencies`. */
static void write_block(bit_writer *writer, const uint16_t *tokens, size_t token_count,
                        uint32_t *literal_frequencies, const uint8_t *input, size_t input_length) {
    uint32_t distance_frequencies[DISTANCE_CODES] = {0};
    literal_frequencies[256] = 1;
    /* Only distance 1 (code 0) is used; codes 0 and 1 get one bit each, a complete code. */
    distance_frequencies[0] = 1;
    distance_frequencies[1] = 1;

    uint8_t literal_lengths[LITERAL_LENGTH_CODES];
    uint8_t distance_lengths[DISTANCE_CODES];
    build_lengths(literal_frequencies, LITERAL_LENGTH_CODES, 15, literal_lengths);
    build_lengths(distance_frequencies, DISTANCE_CODES, 15, distance_lengths);

    int literal_count = LITERAL_LENGTH_CODES;
    while (literal_count > 257 && !literal_lengths[literal_count - 1]) literal_count--;
    int distance_count = DISTANCE_CODES;
    while (distance_count > 1 && !distance_lengths[distance_count - 1]) distance_count--;

    /* Run-length code the concatenated code lengths with symbols 16, 17 and 18. */
    uint8_t all[LITERAL_LENGTH_CODES + DISTANCE_CODES];
    memcpy(all, literal_lengths, (size_t)literal_count);
    memcpy(all + literal_count, distance_lengths, (size_t)distance_count);
    int total = literal_count + distance_count;
    uint8_t rle_symbols[LITERAL_LENGTH_CODES + DISTANCE_CODES];
    uint8_t rle_extra[LITERAL_LENGTH_CODES + DISTANCE_CODES];
    int rle_count = 0;
    uint32_t code_length_frequencies[CODE_LENGTH_CODES] = {0};
    for (int i = 0; i < total;) {
        uint8_t length = all[i];
        int run = 1;
        while (i + run < total && all[i + run] == length) run++;
        if (length == 0 && run >= 3) {
            if (run > 138) run = 138;
            rle_symbols[rle_count] = run >= 11 ? 18 : 17;
            rle_extra[rle_count] = (uint8_t)(run >= 11 ? run - 11 : run - 3);
        } else if (length != 0 && i > 0 && all[i - 1] == length && run >= 3) {
            if (run > 6) run = 6;
            rle_symbols[rle_count] = 16;
            rle_extra[rle_count] = (uint8_t)(run - 3);
        } else {
            run = 1;
            rle_symbols[rle_count] = length;
            rle_extra[rle_count] = 0;
        }
        code_length_frequencies[rle_symbols[rle_count]]++;
        rle_count++;
        i += run;
    }
    uint8_t code_length_lengths[CODE_LENGTH_CODES];
    build_lengths(code_length_frequencies, CODE_LENGTH_CODES, 7, code_length_lengths);
    int code_length_count = CODE_LENGTH_CODES;
    while (code_length_count > 4 && !code_length_lengths[code_length_order[code_length_count - 1]]) code_length_count--;

    /* Cost of the dynamic block against a stored one; take the smaller. */
    uint64_t bits = 3 + 5 + 5 + 4 + 3 * (uint64_t)code_length_count;
    for (int i = 0; i < rle_count; i++) {
        uint8_t symbol = rle_symbols[i];
        bits += code_length_lengths[symbol] + (symbol == 16 ? 2 : symbol == 17 ? 3 : symbol == 18 ? 7 : 0);
    }
    for (int i = 0; i < LITERAL_LENGTH_CODES; i++) bits += (uint64_t)literal_frequencies[i] * literal_lengths[i];
    for (int code = 0; code < 29; code++) bits += (uint64_t)literal_frequencies[257 + code] * length_extra[code];
    size_t runs = 0;
    for (int code = 0; code < 29; code++) runs += literal_frequencies[257 + code];
    bits += runs * distance_lengths[0];
    if (bits >= (uint64_t)(input_length + 5) * 8 + 7) {
        put_bits(writer, 0, 3);  /* BFINAL 0, BTYPE 00: stored */
        align_to_byte(writer);
        if (writer->position + 4 + input_length > writer->capacity) {
            writer->overflow = 1;
            return;
        }
        uint16_t length = (uint16_t)input_length;
        writer->out[writer->position++] = (uint8_t)length;
        writer->out[writer->position++] = (uint8_t)(length >> 8);
        writer->out[writer->position++] = (uint8_t)~length;
        writer->out[writer->position++] = (uint8_t)(~length >> 8);
        memcpy(writer->out + writer->position, input, input_length);
        writer->position += input_length;
        return;
    }

    uint16_t literal_codes[LITERAL_LENGTH_CODES];
    uint16_t distance_codes[DISTANCE_CODES];
    uint16_t code_length_codes[CODE_LENGTH_CODES];
    assign_codes(literal_lengths, LITERAL_LENGTH_CODES, literal_codes);
    assign_codes(distance_lengths, DISTANCE_CODES, distance_codes);
    assign_codes(code_length_lengths, CODE_LENGTH_CODES, code_length_codes);

    put_bits(writer, 2 << 1, 3);  /* BFINAL 0, BTYPE 10: dynamic codes */
    put_bits(writer, (uint32_t)(literal_count - 257), 5);
    put_bits(writer, (uint32_t)(distance_count - 1), 5);
    put_bits(writer, (uint32_t)(code_length_count - 4), 4);
    for (int i = 0; i < code_length_count; i++) put_bits(writer, code_length_lengths[code_length_order[i]], 3);
    for (int i = 0; i < rle_count; i++) {
        uint8_t symbol = rle_symbols[i];
        put_bits(writer, code_length_codes[symbol], code_length_lengths[symbol]);
        if (symbol == 16) put_bits(writer, rle_extra[i], 2);
        else if (symbol == 17) put_bits(writer, rle_extra[i], 3);
        else if (symbol == 18) put_bits(writer, rle_extra[i], 7);
    }
    const uint32_t distance_code = distance_codes[0];
    const unsigned distance_length = distance_lengths[0];
    for (size_t i = 0; i < token_count; i++) {
        uint16_t token = tokens[i];
        if (token < 256) {
            put_bits(writer, literal_codes[token], literal_lengths[token]);
        } else {
            length_code length = length_codes[token - 256 + MIN_RUN];
            put_bits(writer, literal_codes[length.symbol], literal_lengths[length.symbol]);
            if (length.extra_bits) put_bits(writer, length.extra_value, length.extra_bits);
            put_bits(writer, distance_code, distance_length);
        }
    }
    put_bits(writer, literal_codes[256], literal_lengths[256]);
}

size_t belay_run_length_deflate_bound(size_t size) {
    /* Each block is at most a stored block: 5 bytes of header plus its input, plus alignment;
     * then the closing empty stored block. */
    return size + (size / BLOCK_INPUT + 1) * 8 + 16;
}

static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

int belay_run_length_deflate(const uint8_t *input, size_t size, uint8_t *out, size_t out_capacity,
                             size_t *out_size) {
    pthread_once(&tables_once, fill_length_codes);
    bit_writer writer = {out, 0, out_capacity, 0, 0, 0};
    uint16_t tokens[BLOCK_INPUT];
    size_t position = 0;
    while (position < size) {
        size_t block_start = position;
        size_t block_end = size - position > BLOCK_INPUT ? position + BLOCK_INPUT : size;
        size_t token_count = 0;
        uint32_t literal_frequencies[LITERAL_LENGTH_CODES] = {0};
        while (position < block_end) {
            /* A run needs the next three bytes equal to the one before: one 32-bit compare
             * decides, so literals cost no mispredicted byte-by-byte checks. */
            if (position > 0 && position + 3 <= block_end) {
                uint32_t word;
                memcpy(&word, input + position - 1, 4);
                if (word == (uint32_t)input[position - 1] * 0x01010101u) {
                    uint8_t previous = input[position - 1];
                    size_t limit = block_end - position < MAX_RUN ? block_end - position : MAX_RUN;
                    size_t run = 3;
                    /* Extend eight bytes at a time; the first differing byte ends the run. */
                    const uint64_t pattern = (uint64_t)previous * 0x0101010101010101ull;
                    while (run + 8 <= limit) {
                        uint64_t chunk;
                        memcpy(&chunk, input + position + run, 8);
                        uint64_t difference = chunk ^ pattern;
                        if (difference) {
                            run += (size_t)__builtin_ctzll(difference) / 8;  /* little-endian */
                            goto measured;
                        }
                        run += 8;
                    }
                    while (run < limit && input[position + run] == previous) run++;
                measured:
                    tokens[token_count++] = (uint16_t)(256 + run - MIN_RUN);
                    literal_frequencies[length_codes[run].symbol]++;
                    position += run;
                    continue;
                }
            }
            uint8_t literal = input[position++];
            tokens[token_count++] = literal;
            literal_frequencies[literal]++;
        }
        write_block(&writer, tokens, token_count, literal_frequencies, input + block_start, block_end - block_start);
        if (writer.overflow) return -1;
    }
    /* Sync flush: an empty stored block ends the segment on a byte boundary. */
    put_bits(&writer, 0, 3);
    align_to_byte(&writer);
    if (writer.position + 4 > writer.capacity) return -1;
    out[writer.position++] = 0x00;
    out[writer.position++] = 0x00;
    out[writer.position++] = 0xFF;
    out[writer.position++] = 0xFF;
    *out_size = writer.position;
    return writer.overflow ? -1 : 0;
}
