#include "http_shim.h"
