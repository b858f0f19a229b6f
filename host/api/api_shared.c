/* Linked into libmcphost.so.1 only, not into the executable's static
 * archive of the same objects: what tells them apart (api_internal.h). */
#include "api/api_internal.h"

const char api_shared_library = 1;
