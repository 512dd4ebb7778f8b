// How fast this machine reads a file with N threads, as the bound on what `-j N` can gain
// (Docs/Performance.md, Parts as small as a stream's). Build: cc -O2 -pthread -o read-threads
// Benchmarks/read-threads.c; run: read-threads FILE N (N threads each pread(2) a slice in 1 MiB chunks).
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
static int fd; static off_t size; static int n;
static void *run(void *arg) {
  long k = (long)arg; off_t from = size * k / n, to = size * (k + 1) / n;
  char *b = malloc(1 << 20);
  for (off_t p = from; p < to;) { ssize_t got = pread(fd, b, (to - p) < (1 << 20) ? (to - p) : (1 << 20), p); if (got <= 0) break; p += got; }
  free(b); return 0;
}
int main(int argc, char **argv) {
  fd = open(argv[1], O_RDONLY); struct stat st; fstat(fd, &st); size = st.st_size; n = atoi(argv[2]);
  pthread_t t[64]; for (long k = 0; k < n; k++) pthread_create(&t[k], 0, run, (void *)k);
  for (int k = 0; k < n; k++) pthread_join(t[k], 0); return 0;
}
