#include "image_shim.h"
