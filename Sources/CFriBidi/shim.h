#include <fribidi.h>
#include <stdint.h>
#include <stdlib.h>

/// Resolves the bidi embedding levels of one paragraph of UTF-32 text.
/// `direction`: 0 detects it from the first strong character (left to right when there is
/// none), 1 forces left to right, 2 right to left. Fills `levels` (one per character; odd
/// is right to left) and returns the paragraph's direction (1 or 2), or 0 when FriBidi fails.
static inline int belay_fribidi_levels(const uint32_t *text, int length, int direction, uint8_t *levels) {
    if (length <= 0) return direction == 2 ? 2 : 1;
    FriBidiCharType *types = malloc(sizeof(FriBidiCharType) * (size_t)length);
    FriBidiBracketType *brackets = malloc(sizeof(FriBidiBracketType) * (size_t)length);
    if (!types || !brackets) { free(types); free(brackets); return 0; }
    fribidi_get_bidi_types(text, length, types);
    fribidi_get_bracket_types(text, length, types, brackets);
    FriBidiParType base = direction == 1 ? FRIBIDI_PAR_LTR : direction == 2 ? FRIBIDI_PAR_RTL : FRIBIDI_PAR_ON;
    FriBidiLevel maxLevel = fribidi_get_par_embedding_levels_ex(types, brackets, length, &base, (FriBidiLevel *)levels);
    free(types);
    free(brackets);
    if (maxLevel == 0) return 0;
    return FRIBIDI_IS_RTL(base) ? 2 : 1;
}
