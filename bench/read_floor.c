// The floor of `perfgate diff` on nvbench results: reading the same bytes with nothing
// else done. Reads each named JSON file, then every file in its "<file>-bin" and
// "<file>-freqs-bin" folders, with open/read/close and a reused buffer, spread over
// THREADS threads, and prints the best wall milliseconds of REPS rounds. No parsing, no
// allocation per file: no reader of those files can be faster on this machine.
//   read_floor THREADS REPS FILE.json...
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { kBufferBytes = 1 << 20 };

struct Paths {
  char** items;
  size_t count;
  size_t capacity;
};

static void add_path(struct Paths* paths, const char* folder, const char* name) {
  if (paths->count == paths->capacity) {
    paths->capacity = paths->capacity ? paths->capacity * 2 : 1024;
    paths->items = realloc(paths->items, paths->capacity * sizeof *paths->items);
    if (!paths->items) exit(2);
  }
  size_t length = strlen(folder) + strlen(name) + 2;
  char* path = malloc(length);
  if (!path) exit(2);
  snprintf(path, length, "%s%s%s", folder, *folder ? "/" : "", name);
  paths->items[paths->count++] = path;
}

static void add_folder(struct Paths* paths, const char* folder) {
  DIR* listing = opendir(folder);
  if (!listing) return;  // a file without bulk samples has no folder
  for (struct dirent* entry; (entry = readdir(listing));) {
    if (entry->d_name[0] != '.') add_path(paths, folder, entry->d_name);
  }
  closedir(listing);
}

struct Share {
  const struct Paths* paths;
  size_t first, end;
  long long bytes;
};

static void* read_share(void* argument) {
  struct Share* share = argument;
  char* buffer = malloc(kBufferBytes);
  if (!buffer) exit(2);
  for (size_t i = share->first; i < share->end; ++i) {
    int fd = open(share->paths->items[i], O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      perror(share->paths->items[i]);
      exit(1);
    }
    for (ssize_t got; (got = read(fd, buffer, kBufferBytes)) > 0;) share->bytes += got;
    close(fd);
  }
  free(buffer);
  return NULL;
}

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

int main(int argc, char** argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: read_floor THREADS REPS FILE.json...\n");
    return 2;
  }
  const int threads = atoi(argv[1]);
  const int reps = atoi(argv[2]);
  if (threads < 1 || threads > 64 || reps < 1) return 2;
  struct Paths paths = {0};
  for (int a = 3; a < argc; ++a) {
    add_path(&paths, "", argv[a]);
    char folder[4096];
    snprintf(folder, sizeof folder, "%s-bin", argv[a]);
    add_folder(&paths, folder);
    snprintf(folder, sizeof folder, "%s-freqs-bin", argv[a]);
    add_folder(&paths, folder);
  }
  double best = 1e300;
  long long bytes = 0;
  for (int rep = 0; rep < reps; ++rep) {
    pthread_t ids[64];
    struct Share shares[64];
    const double start = now_ms();
    for (int t = 0; t < threads; ++t) {
      shares[t] = (struct Share){&paths, paths.count * (size_t)t / (size_t)threads,
                                 paths.count * (size_t)(t + 1) / (size_t)threads, 0};
      pthread_create(&ids[t], NULL, read_share, &shares[t]);
    }
    bytes = 0;
    for (int t = 0; t < threads; ++t) {
      pthread_join(ids[t], NULL);
      bytes += shares[t].bytes;
    }
    const double spent = now_ms() - start;
    if (spent < best) best = spent;
  }
  printf("%.3f %zu %lld\n", best, paths.count, bytes);
  return 0;
}
