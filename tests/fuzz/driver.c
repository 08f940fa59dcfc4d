/* driver.c - main() for a fuzz target built without libFuzzer: feeds each
 * file named on the command line (or each file of a named directory) to
 * LLVMFuzzerTestOneInput(), as libFuzzer does when it replays a crash.
 *
 *   make build/san/fuzz_render && build/san/fuzz_render crash-1234
 *
 * Built with the project's compiler and ASan+UBSan, so a crash found by
 * `make fuzz` can be replayed (and debugged) without clang.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return 1;
    }
    uint8_t *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n == cap) {
            cap = cap ? cap * 2 : 65536;
            uint8_t *nb = realloc(buf, cap);
            if (!nb) {
                fclose(f);
                free(buf);
                return 1;
            }
            buf = nb;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        if (!got)
            break;
        n += got;
    }
    fclose(f);
    /* An exact-size copy, so ASan catches a read one past the end. */
    uint8_t *exact = malloc(n ? n : 1);
    if (n)
        memcpy(exact, buf, n);
    free(buf);
    fprintf(stderr, "running %s (%zu bytes)\n", path, n);
    LLVMFuzzerTestOneInput(exact, n);
    free(exact);
    return 0;
}

int main(int argc, char **argv)
{
    int bad = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            DIR *d = opendir(argv[i]);
            for (struct dirent *e; d && (e = readdir(d));) {
                if (e->d_name[0] == '.')
                    continue;
                char p[4096];
                snprintf(p, sizeof p, "%s/%s", argv[i], e->d_name);
                bad |= run_file(p);
            }
            if (d)
                closedir(d);
        } else {
            bad |= run_file(argv[i]);
        }
    }
    return bad;
}
