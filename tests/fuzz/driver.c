/* A standalone driver for the fuzz targets where libFuzzer is not used
 * (gcc, and every ctest run): runs every input given (a file, or every
 * regular file of a directory, in name order), then N mutations spread
 * over them (bit flips, byte changes, cuts, growth, splices of another
 * input), from a fixed seed so that a failure replays.
 *   fuzz_X_driver [-n MUTATIONS] [-s SEED] FILE|DIR...
 * When the target aborts or a sanitizer reports, the input at fault is
 * written to ./fuzz-crash-PID (its path on stderr), ready to become a
 * regression input (tests/fuzz/regress/NAME/). Exits 0 when every run
 * passed, 2 on a usage error or an unreadable input. */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len);

/* Present when a sanitizer is linked in (weak: absent otherwise). */
extern void __sanitizer_set_death_callback(void (*cb)(void))
    __attribute__((weak));

typedef struct {
  unsigned char *data;
  size_t len;
} input;

static uint64_t state;

/* The input being run, for dump_current(); the driver is one thread. */
static const unsigned char *current;
static size_t current_len;

static uint64_t next(void) {
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return state;
}

/* Async-signal-safe: only open, write and close. */
static void dump_current(void) {
  char path[64] = "fuzz-crash-";
  char digits[24];
  int n = 0;
  for (unsigned long pid = (unsigned long)getpid(); pid; pid /= 10) {
    digits[n++] = (char)('0' + pid % 10);
  }
  size_t at = strlen(path);
  while (n > 0) {
    path[at++] = digits[--n];
  }
  path[at] = '\0';
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) {
    return;
  }
  size_t off = 0;
  while (current && off < current_len) {
    ssize_t w = write(fd, current + off, current_len - off);
    if (w <= 0) {
      break;
    }
    off += (size_t)w;
  }
  close(fd);
  static const char msg[] = "fuzz driver: input at fault written to ";
  (void)!write(2, msg, sizeof msg - 1);
  (void)!write(2, path, at);
  (void)!write(2, "\n", 1);
}

static void on_signal(int sig) {
  dump_current();
  signal(sig, SIG_DFL);
  raise(sig);
}

static int load_file(const char *path, input *in) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    perror(path);
    return -1;
  }
  size_t cap = 4096, len = 0;
  unsigned char *buf = malloc(cap);
  size_t got;
  while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
    len += got;
    if (len == cap) {
      unsigned char *bigger = realloc(buf, cap * 2);
      if (!bigger) {
        free(buf);
        buf = NULL;
        break;
      }
      buf = bigger;
      cap *= 2;
    }
  }
  int bad = ferror(f) || !buf;
  fclose(f);
  if (bad) {
    fprintf(stderr, "%s: cannot read\n", path);
    free(buf);
    return -1;
  }
  in->data = buf;
  in->len = len;
  return 0;
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Appends PATH (a file) or the regular files of PATH (a directory) to
 * *ins. Returns 0, or -1 with the reason on stderr. */
static int load_path(const char *path, input **ins, size_t *count) {
  struct stat st;
  if (stat(path, &st) != 0) {
    perror(path);
    return -1;
  }
  char **names = NULL;
  size_t n = 0;
  if (S_ISDIR(st.st_mode)) {
    DIR *d = opendir(path);
    if (!d) {
      perror(path);
      return -1;
    }
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
      if (e->d_name[0] == '.') {
        continue;
      }
      size_t sz = strlen(path) + strlen(e->d_name) + 2;
      char *full = malloc(sz);
      char **more = realloc(names, (n + 1) * sizeof *names);
      if (!full || !more) {
        free(full);
        closedir(d);
        return -1;
      }
      names = more;
      snprintf(full, sz, "%s/%s", path, e->d_name);
      struct stat fst;
      if (stat(full, &fst) != 0 || !S_ISREG(fst.st_mode)) {
        free(full);
        continue;
      }
      names[n++] = full;
    }
    closedir(d);
    if (n) {
      qsort(names, n, sizeof *names, by_name);
    }
  } else {
    names = malloc(sizeof *names);
    if (!names || !(names[0] = strdup(path))) {
      free(names);
      return -1;
    }
    n = 1;
  }
  int rc = 0;
  for (size_t i = 0; i < n; i++) {
    input *more = realloc(*ins, (*count + 1) * sizeof **ins);
    if (!more) {
      rc = -1;
    } else {
      *ins = more;
      if (rc == 0 && load_file(names[i], &(*ins)[*count]) == 0) {
        (*count)++;
      } else {
        rc = -1;
      }
    }
    free(names[i]);
  }
  free(names);
  return rc;
}

static void run(const unsigned char *data, size_t len) {
  current = data;
  current_len = len;
  LLVMFuzzerTestOneInput(data, len);
  current = NULL;
}

/* Returns a new buffer (free it) holding a mutation of ins[i]. */
static unsigned char *mutate(const input *ins, size_t count, size_t i,
                             size_t *out_len) {
  size_t len = ins[i].len;
  size_t cap = len + 64;
  unsigned char *m = malloc(cap);
  if (!m) {
    abort();
  }
  if (len) {
    memcpy(m, ins[i].data, len);
  }
  int edits = 1 + (int)(next() % 4);
  for (int e = 0; e < edits; e++) {
    switch (next() % 6) {
    case 0:
      if (len) {
        m[next() % len] ^= (unsigned char)(1u << (next() % 8));
      }
      break;
    case 1:
      if (len) {
        m[next() % len] = (unsigned char)next();
      }
      break;
    case 2:
      if (len) {
        len = next() % len;
      }
      break;
    case 3: {
      const input *o = &ins[next() % count];
      size_t take = o->len < 32 ? o->len : 1 + next() % 32;
      if (take > o->len) {
        take = o->len;
      }
      size_t from = o->len > take ? next() % (o->len - take + 1) : 0;
      size_t at = len ? next() % (len + 1) : 0;
      if (take && at + take <= cap) {
        memcpy(m + at, o->data + from, take);
        if (at + take > len) {
          len = at + take;
        }
      }
      break;
    }
    case 4:
      if (len && len < cap) {
        /* Repeat a byte: long runs find length and limit bugs. */
        size_t at = next() % len, k = 1 + next() % (cap - len);
        memmove(m + at + k, m + at, len - at);
        memset(m + at, m[at + k], k);
        len += k;
      }
      break;
    default:
      if (len < cap) {
        m[len++] = (unsigned char)next();
      }
    }
  }
  *out_len = len;
  return m;
}

int main(int argc, char **argv) {
  long mutations = 20000;
  unsigned long long seed = 0x9e3779b97f4a7c15ull;
  int opt;
  while ((opt = getopt(argc, argv, "n:s:")) != -1) {
    switch (opt) {
    case 'n': mutations = strtol(optarg, NULL, 10); break;
    case 's': seed = strtoull(optarg, NULL, 0); break;
    default: goto usage;
    }
  }
  if (optind >= argc || mutations < 0) {
    goto usage;
  }
  state = seed ? seed : 1;
  input *ins = NULL;
  size_t count = 0;
  for (int a = optind; a < argc; a++) {
    if (load_path(argv[a], &ins, &count) != 0) {
      return 2;
    }
  }
  if (count == 0) {
    fprintf(stderr, "%s: no input in the paths given\n", argv[0]);
    return 2;
  }
  if (__sanitizer_set_death_callback) {
    __sanitizer_set_death_callback(dump_current);
  }
  signal(SIGABRT, on_signal);
  signal(SIGSEGV, on_signal);
  signal(SIGBUS, on_signal);
  signal(SIGFPE, on_signal);
  for (size_t i = 0; i < count; i++) {
    run(ins[i].data, ins[i].len);
  }
  for (long k = 0; k < mutations; k++) {
    size_t len;
    unsigned char *m = mutate(ins, count, (size_t)k % count, &len);
    run(m, len);
    free(m);
  }
  printf("%zu inputs and %ld mutations (seed %#llx): no failure\n", count,
         mutations, seed);
  for (size_t i = 0; i < count; i++) {
    free(ins[i].data);
  }
  free(ins);
  return 0;
usage:
  fprintf(stderr, "usage: %s [-n MUTATIONS] [-s SEED] FILE|DIR...\n",
          argv[0]);
  return 2;
}
