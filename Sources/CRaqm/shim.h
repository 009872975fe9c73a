#include <raqm.h>
