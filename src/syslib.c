/* syslib.c - system libraries opened when first needed.  See syslib.h. */
#include "syslib.h"

#include <dlfcn.h>
#include <string.h>

bool cv_lib_open(cv_lib *l)
{
    if (!l->state) {
        size_t n = 0;
        while (l->names[n])
            n++;
        void *h = n * sizeof(void *) == l->size ? dlopen(l->soname, RTLD_NOW | RTLD_LOCAL)
                                                : NULL;
        bool all = h != NULL;
        for (size_t i = 0; all && i < n; i++) {
            void *p = dlsym(h, l->names[i]);
            all = p != NULL;
            /* A function pointer has the size of a data pointer (POSIX's
             * dlsym needs it); memcpy writes it into the typed member. */
            memcpy((char *)l->fn + i * sizeof p, &p, sizeof p);
        }
        if (h && !all) {
            dlclose(h);
            memset(l->fn, 0, l->size);
        }
        l->state = all ? 1 : 2;
    }
    return l->state == 1;
}
