/* A forged bitmap index through the C API, at any rank count: an index of 'energy' whose Roaring
 * bytes were changed inside — a bitset holding a bit more than its stored cardinality, and two
 * containers' keys swapped — with every checksum above them recomputed, is skipped: the value
 * queries return the exact counts (computed here from the data) with a note saying the index was
 * unusable, and nothing aborts. The unforged index answers the same without a note.
 *
 *   mpiexec -n 3 ./capi_forged_index_test SCRATCH_DIR
 */
#include <dirent.h>
#include <lodex.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "capi_check.h"

enum { kRows = 100000 };   /* two Roaring containers per bin; the 0.5 bin's are bitsets */

static float energy(int64_t i) { return i % 2 == 0 ? 0.5f : (float)((i * 7919) % 1000) / 1000.0f; }

static void write_dataset(const char* path) {
  lodex_dataset* ds = NULL;
  EXPECT_OK(lodex_dataset_create(path, MPI_COMM_WORLD, 0, &ds));
  const lodex_field_def f[] = {{"position", LODEX_F8, 3}, {"energy", LODEX_F4, 1}, {"id", LODEX_I8, 1}};
  const double domain[6] = {0, 0, 0, 1, 1, 1};
  lodex_particles* p = NULL;
  EXPECT_OK(lodex_particles_define(ds, "p", f, 3, domain, NULL, NULL, &p));
  const int64_t first = (int64_t)kRows * g_rank / g_size, end = (int64_t)kRows * (g_rank + 1) / g_size;
  const size_t n = (size_t)(end - first);
  double* pos = malloc(3 * n * sizeof(double) + 1);
  float* e = malloc(n * sizeof(float) + 1);
  int64_t* id = malloc(n * sizeof(int64_t) + 1);
  for (size_t k = 0; k < n; ++k) {
    const int64_t i = first + (int64_t)k;
    for (int a = 0; a < 3; ++a) pos[3 * k + a] = (double)((i * (2654435761u + 97 * a)) % 1000003) / 1000003.0;
    e[k] = energy(i);
    id[k] = i;
  }
  const lodex_field_data d[] = {
      {"position", LODEX_F8, 3, n, pos}, {"energy", LODEX_F4, 1, n, e}, {"id", LODEX_I8, 1, n, id}};
  EXPECT_OK(lodex_particles_write(p, 0, d, 3, NULL));
  const char* fields[] = {"energy"};
  EXPECT_OK(lodex_particles_build_index(p, fields, 1, LODEX_BINNING_PRECISION, 2, NULL, 0, NULL));
  EXPECT_OK(lodex_dataset_close(ds));
  free(pos), free(e), free(id);
}

/* ---- the forgery (rank 0): the index file's bytes, its 0.5 bin's bitmap, the checksums ---- */

static uint64_t u64(const unsigned char* p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return v;
}
static uint32_t u32(const unsigned char* p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
}
static uint16_t u16(const unsigned char* p) {
  uint16_t v;
  memcpy(&v, p, 2);
  return v;
}

static int index_file(const char* path, char* out, size_t size) {
  char dir[4300];
  snprintf(dir, sizeof dir, "%s/p/step-000000000", path);
  DIR* d = opendir(dir);
  struct dirent* ent;
  int found = 0;
  while (d && (ent = readdir(d)))
    if (strstr(ent->d_name, ".energy.lbx")) found = snprintf(out, size, "%s/%s", dir, ent->d_name) > 0;
  if (d) closedir(d);
  return found;
}

/* kind 0: a bit set past the first bitset's cardinality; kind 1: the first two keys swapped.
 * Returns whether a bin of two bitsets (no run containers) was found and forged. */
static int forge(const char* path, int kind) {
  char file[4400];
  if (!index_file(path, file, sizeof file)) return 0;
  FILE* fh = fopen(file, "rb");
  if (!fh) return 0;
  fseek(fh, 0, SEEK_END);
  const long size = ftell(fh);
  fseek(fh, 0, SEEK_SET);
  unsigned char* raw = malloc((size_t)size);
  const int read_all = fread(raw, 1, (size_t)size, fh) == (size_t)size;
  fclose(fh);
  const uint64_t bins = u64(raw + 128) + 1, table = u64(raw + 160);
  uint64_t at = u64(raw + 176);
  int forged = 0;
  for (uint64_t b = 0; read_all && b < bins && !forged; ++b) {
    unsigned char* entry = raw + table + 20 * b;
    const uint32_t bytes = u32(entry + 12) & 0x7FFFFFFFu;
    unsigned char* bm = raw + at;
    at += bytes;
    /* Without run containers: cookie 12346, 2 containers, keys and cardinalities, 2 offsets. */
    if (bytes != 24 + 2 * 8192 || u32(bm) != 12346 || u32(bm + 4) != 2) continue;
    if (u16(bm + 10) < 4096 || u16(bm + 14) < 4096) continue;
    if (kind == 0) {
      unsigned char* bits = bm + 24;
      int i = 0;
      while (bits[i] == 0xFF) ++i;
      const unsigned clear = ~(unsigned)bits[i] & 0xFFu;
      bits[i] |= (unsigned char)(clear & (0u - clear));   /* its lowest clear bit */
    } else {
      const uint16_t k0 = u16(bm + 8), k1 = u16(bm + 12);
      memcpy(bm + 8, &k1, 2), memcpy(bm + 12, &k0, 2);
    }
    const uint32_t sum = (uint32_t)XXH3_64bits(bm, bytes);
    memcpy(entry + 16, &sum, 4);
    const uint64_t tsum = XXH3_64bits(raw + table, 20 * bins);
    memcpy(raw + 128 + 40, &tsum, 8);
    const uint64_t csum = XXH3_64bits(raw + 128, 64);
    memcpy(raw + 128 + 64, &csum, 8);
    forged = 1;
  }
  if (forged && (fh = fopen(file, "wb"))) {
    forged = fwrite(raw, 1, (size_t)size, fh) == (size_t)size;
    fclose(fh);
  }
  free(raw);
  return forged;
}

/* ---- the queries: exact counts; a note on the index when forged ---- */

static uint64_t expected(int op) {   /* 0: energy == 0.5, 1: energy != 0.5, 2: energy < 0.7 */
  uint64_t n = 0;
  for (int64_t i = 0; i < kRows; ++i) {
    const float v = energy(i);
    n += op == 0 ? v == 0.5f : op == 1 ? v != 0.5f : (double)v < 0.7;
  }
  return n;
}

static void check_queries(const char* path, int forged) {
  static const char* texts[] = {"energy == 0.5", "energy != 0.5", "energy < 0.7"};
  lodex_dataset* ds = NULL;
  EXPECT_OK(lodex_dataset_open(path, LODEX_MODE_READ, MPI_COMM_WORLD, 0, &ds));
  lodex_particles* p = NULL;
  EXPECT_OK(lodex_particles_open(ds, "p", &p));
  int noted = 0;
  for (int q = 0; q < 3; ++q) {
    lodex_query query;
    EXPECT_OK(lodex_query_init(&query));
    query.text = texts[q];
    lodex_query_result* r = NULL;
    EXPECT_OK(lodex_particles_query(p, 0, &query, MPI_COMM_WORLD, &r));
    uint64_t count = 0, local = 0;
    size_t notes = 0;
    EXPECT_OK(lodex_query_result_count(r, &count, &local));
    EXPECT(count == expected(q));
    EXPECT_OK(lodex_query_result_note_count(r, &notes));
    for (size_t k = 0; k < notes; ++k) {
      const char* note = NULL;
      EXPECT_OK(lodex_query_result_note(r, k, &note));
      noted += note && strstr(note, "bitmap index unusable") && strstr(note, "'energy'");
    }
    EXPECT_OK(lodex_query_result_free(r));
  }
  EXPECT(forged ? noted > 0 : noted == 0);
  EXPECT_OK(lodex_dataset_close(ds));
}

int main(int argc, char** argv) {
  char path[4200], copy[4300];
  capi_test_begin(&argc, &argv, "forged.lodex", path, sizeof path);
  snprintf(copy, sizeof copy, "%s.pristine", path);
  write_dataset(path);
  check_queries(path, 0);
  for (int kind = 0; kind < 2; ++kind) {
    int ok = 1;
    if (g_rank == 0) {
      char cmd[3 * 4300 + 64];
      snprintf(cmd, sizeof cmd, "rm -rf '%s' && cp -a '%s' '%s'", copy, path, copy);
      ok = system(cmd) == 0 && forge(path, kind);
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    EXPECT(ok);
    check_queries(path, 1);
    if (g_rank == 0) {
      char cmd[3 * 4300 + 64];
      snprintf(cmd, sizeof cmd, "rm -rf '%s' && mv '%s' '%s'", path, copy, path);
      if (system(cmd) != 0) fprintf(stderr, "could not restore %s\n", path);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }

  return capi_test_end();
}
