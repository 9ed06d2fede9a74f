#define _GNU_SOURCE
#include <dlfcn.h>
#include <graphviz/gvc.h>
#include <graphviz/cgraph.h>

/// The path of the libgvc the process is linked with (its plugins are in its `graphviz` folder), or NULL.
static inline const char *flowlens_gvc_library_path(void) {
    Dl_info info;
    if (dladdr((void *)gvContext, &info) && info.dli_fname) return info.dli_fname;
    return 0;
}
