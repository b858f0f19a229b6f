/* A standalone driver for the fuzz targets where libFuzzer is not
 * available (gcc): runs every file given (a corpus), then a fixed number
 * of mutations of each (bit flips, byte changes, cuts, splices of
 * another input), from a fixed seed so a failure can be replayed.
 *   fuzz_X [-n ITERATIONS] FILE...
 * Exits non-zero (abort) when the target's checks fail. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len);

static uint64_t state = 0x9e3779b97f4a7c15ull;

static uint64_t next(void) {
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return state;
}

static unsigned char *load(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    perror(path);
    exit(2);
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *buf = malloc((size_t)n + 1);
  if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
    exit(2);
  }
  fclose(f);
  *len = (size_t)n;
  return buf;
}

int main(int argc, char **argv) {
  long iterations = 2000;
  int first = 1;
  if (argc > 2 && strcmp(argv[1], "-n") == 0) {
    iterations = strtol(argv[2], NULL, 10);
    first = 3;
  }
  int count = argc - first;
  if (count <= 0) {
    fprintf(stderr, "usage: %s [-n ITERATIONS] FILE...\n", argv[0]);
    return 2;
  }
  unsigned char **inputs = calloc((size_t)count, sizeof *inputs);
  size_t *lens = calloc((size_t)count, sizeof *lens);
  for (int i = 0; i < count; i++) {
    inputs[i] = load(argv[first + i], &lens[i]);
    LLVMFuzzerTestOneInput(inputs[i], lens[i]);
  }
  unsigned long runs = 0;
  for (int i = 0; i < count; i++) {
    for (long k = 0; k < iterations; k++) {
      size_t len = lens[i];
      unsigned char *m = malloc(len + 64);
      memcpy(m, inputs[i], len);
      int edits = 1 + (int)(next() % 4);
      for (int e = 0; e < edits; e++) {
        switch (next() % 5) {
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
          int j = (int)(next() % (uint64_t)count);
          size_t take = lens[j] < 64 ? lens[j] : 64;
          size_t at = len ? next() % len : 0;
          if (lens[j] && at + take <= len) {
            memcpy(m + at, inputs[j] + (lens[j] - take), take);
          }
          break;
        }
        default:
          if (len + 8 <= lens[i] + 64) {
            memset(m + len, 0, 8);
            len += 8;
          }
        }
      }
      LLVMFuzzerTestOneInput(m, len);
      free(m);
      runs++;
    }
  }
  printf("%lu runs over %d inputs: no failure\n", runs + (unsigned long)count,
         count);
  for (int i = 0; i < count; i++) {
    free(inputs[i]);
  }
  free(inputs);
  free(lens);
  return 0;
}
