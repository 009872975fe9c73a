#include "icu_shim.h"
#include <unicode/uspoof.h>

void *belay_spoof_open(int32_t *status) {
    UErrorCode error = U_ZERO_ERROR;
    USpoofChecker *checker = uspoof_open(&error);
    *status = (int32_t)error;
    if (U_FAILURE(error)) {
        if (checker != NULL) uspoof_close(checker);
        return NULL;
    }
    return checker;
}

void belay_spoof_close(void *checker) {
    uspoof_close((USpoofChecker *)checker);
}

int32_t belay_spoof_skeleton(const void *checker, const uint16_t *text, int32_t length,
                             uint16_t *destination, int32_t capacity, int32_t *overflow, int32_t *failed) {
    UErrorCode error = U_ZERO_ERROR;
    int32_t written = uspoof_getSkeleton((const USpoofChecker *)checker, 0, (const UChar *)text, length,
                                         (UChar *)destination, capacity, &error);
    *overflow = error == U_BUFFER_OVERFLOW_ERROR ? 1 : 0;
    *failed = U_FAILURE(error) && error != U_BUFFER_OVERFLOW_ERROR ? 1 : 0;
    return written;
}
