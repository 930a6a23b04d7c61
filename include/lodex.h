/* lodex C API (C11; also the base of the Fortran module `lodex` and of the C++ header
 * <lodex/lodex.hpp>).
 *
 * A dataset is a directory that one simulation run writes: particle groups, grid variables (IDX,
 * readable by OpenVisus) and series. Writers are MPI ranks; readers are any number of processes,
 * down to one process with no MPI at all.
 *
 * Rules that hold for every call (docs/native.md has the long form):
 *  - Every function returns a status: LODEX_OK (0) or one of the LODEX_ERR_* codes. After a
 *    failure, lodex_last_error() gives the calling thread's message. No C++ exception ever
 *    crosses this interface.
 *  - Handles are opaque. A handle that is NULL, already released, or of the wrong kind is
 *    detected (a registry of live handles is checked, nothing is dereferenced) and refused with
 *    LODEX_ERR_INVALID_ARGUMENT.
 *  - "Collective" calls must be made by every rank of the communicator named, with the same
 *    scalar arguments. An argument error found on some ranks only (a NULL pointer, a wrong dtype,
 *    a bad box) is agreed on: every rank returns the failing rank's code and message, nobody
 *    waits forever. A handle that is invalid on some ranks only cannot take part, so it cannot be
 *    agreed on: that, as in MPI, is the caller's error.
 *  - "Local" calls involve no other rank.
 *  - Ownership: strings and arrays a call returns through `const T**` are borrowed from the
 *    handle named, and stay valid as the comment says. Objects created through `T**` out
 *    arguments belong to the caller and are released with the matching *_free / *_close call.
 *  - Communicators: MPI_Comm, or MPI_COMM_NULL for a serial call (no MPI call is made then,
 *    and MPI need not be initialised). The *_f variants take a Fortran handle (MPI_Fint), which
 *    they convert with MPI_Comm_f2c; a negative Fortran handle means serial.
 *  - Boxes of particles are `double box[6]` = {xmin, ymin, zmin, xmax, ymax, zmax}, min inclusive,
 *    max exclusive. Boxes of grids and series are `int64_t box[6]` in the same order, in samples.
 *    A NULL box means everything.
 *  - Array layout: particle fields are row-major (rows, components); grid fields row-major
 *    (z, y, x, components), series variables (z, y, x) or (y, x). A Fortran array (c, n) or
 *    (x, y, z) is exactly that memory: pass it as it is.
 */
#ifndef LODEX_H
#define LODEX_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "lodex/version.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define LODEX_API __attribute__((visibility("default")))
#else
#define LODEX_API
#endif

/* ---- Status codes, errors, version ------------------------------------------------------- */

enum {
  LODEX_OK = 0,
  LODEX_ERR_INVALID_ARGUMENT = 1, /* the caller passed something wrong */
  LODEX_ERR_NOT_FOUND = 2,        /* a dataset, group, step or field that does not exist */
  LODEX_ERR_ALREADY_EXISTS = 3,   /* creating something already there (a dataset, a step) */
  LODEX_ERR_IO = 4,               /* the operating system refused (permissions, full disk) */
  LODEX_ERR_FORMAT = 5,           /* a file is malformed, truncated or fails its checksum */
  LODEX_ERR_MPI = 6,              /* an MPI call failed */
  LODEX_ERR_UNSUPPORTED = 7,      /* valid, but not implemented by this version */
  LODEX_ERR_INTERNAL = 8          /* a broken invariant inside lodex: please report it */
};

/* Local. The message of the calling thread's last failed call ("" if none). Borrowed: valid
 * until the next failing call on this thread. */
LODEX_API const char* lodex_last_error(void);
/* Local. The name of a status code ("ok", "invalid argument", ...); static storage. */
LODEX_API const char* lodex_status_name(int status);
/* Local. The library's version, "MAJOR.MINOR.PATCH"; static storage. Compare with LODEX_VERSION
 * (lodex/version.h) to see the headers and the library agree. */
LODEX_API const char* lodex_version(void);

/* ---- Element types ---------------------------------------------------------------------- */

/* Element types (numpy's names in the comments). The values are stored on disk. */
enum {
  LODEX_F4 = 1, /* float32 */
  LODEX_F8 = 2, /* float64 */
  LODEX_I1 = 3,
  LODEX_U1 = 4,
  LODEX_I2 = 5,
  LODEX_U2 = 6,
  LODEX_I4 = 7,
  LODEX_U4 = 8,
  LODEX_I8 = 9,
  LODEX_U8 = 10
};
/* Local. Bytes of one element of `dtype` (0 for an unknown code: no error status). */
LODEX_API size_t lodex_dtype_size(int dtype);

/* A field's definition: name (at most 31 bytes), element type, components per row or sample. */
typedef struct lodex_field_def {
  const char* name;
  int32_t dtype;
  uint32_t components;
} lodex_field_def;

/* The caller's values of one field for a write. `rows` rows (particles) or samples (grids,
 * series) of `components` values of `dtype`, contiguous as the section above says. The data
 * is only read, during the call. */
typedef struct lodex_field_data {
  const char* name;
  int32_t dtype;
  uint32_t components;
  uint64_t rows;
  const void* data;
} lodex_field_data;

/* ---- Datasets --------------------------------------------------------------------------- */

typedef struct lodex_dataset lodex_dataset;

enum { LODEX_MODE_READ = 0, LODEX_MODE_APPEND = 1 };
/* Flags of create and open (or together). */
enum {
  LODEX_FSYNC = 1,        /* fsync every data file before a step commits */
  LODEX_EXCHANGE_SHM = 2, /* one writer per partition file, its same-node senders copying into its
                             MPI-3 shared-memory window */
  LODEX_ALLOW_OUTSIDE = 4, /* reads also open files whose real location (links resolved, IDX templates
                              expanded) is outside the dataset's directory; by default such a file is
                              LODEX_ERR_FORMAT */
  LODEX_EXCHANGE_P2P = 8  /* one writer per partition file, the paper's point-to-point messages to it.
                             Without either exchange flag (the default), the ranks of a partition on
                             one node share its rows in MPI-3 shared memory and write its file
                             together, each a slice; the file bytes are the same every way */
};

/* Collective over comm. Creates the dataset directory (its parent must exist; an existing
 * dataset is LODEX_ERR_ALREADY_EXISTS). *out: a new handle, released by lodex_dataset_close. */
LODEX_API int lodex_dataset_create(const char* path, MPI_Comm comm, unsigned flags, lodex_dataset** out);
LODEX_API int lodex_dataset_create_f(const char* path, MPI_Fint comm, unsigned flags, lodex_dataset** out);
/* Collective over comm. Opens an existing dataset to read (LODEX_MODE_READ; comm may be
 * MPI_COMM_NULL) or to append steps, groups, indexes (LODEX_MODE_APPEND). Create and append take
 * the dataset's writer lock (rank 0, released by lodex_dataset_close): while another process
 * holds it, LODEX_ERR_ALREADY_EXISTS on every rank, the message naming its host:pid and since
 * when; a commit finding that another writer replaced the manifest since is refused the same way
 * (docs/reliability.md, "Writer lock"). Reading never locks. */
LODEX_API int lodex_dataset_open(const char* path, int mode, MPI_Comm comm, unsigned flags, lodex_dataset** out);
LODEX_API int lodex_dataset_open_f(const char* path, int mode, MPI_Fint comm, unsigned flags, lodex_dataset** out);
/* Collective over the dataset's communicator. Writes the series' buffered steps, then releases
 * the dataset and every particle, grid and series handle obtained from it, whatever the status
 * (which says whether that last flush succeeded). Refinements and results stay valid until
 * freed. */
LODEX_API int lodex_dataset_close(lodex_dataset* ds);
/* Local. The dataset's path; borrowed from ds. */
LODEX_API int lodex_dataset_path(const lodex_dataset* ds, const char** path);

enum { LODEX_KIND_PARTICLES = 1, LODEX_KIND_GRID = 2, LODEX_KIND_SERIES = 3 };
/* Local. How many groups of `kind` the dataset has, and the name of the index-th (ascending);
 * the name is borrowed from ds until lodex_dataset_close. */
LODEX_API int lodex_dataset_count(const lodex_dataset* ds, int kind, size_t* count);
LODEX_API int lodex_dataset_name(const lodex_dataset* ds, int kind, size_t index, const char** name);

/* ---- Particle groups: definition and writes ------------------------------------------- */

typedef struct lodex_particles lodex_particles;

/* How particles are split among files (paper: spatially-aware particle I/O). FACTOR: (Px,Py,Pz)
 * ranks per partition along each axis of the ranks' patches; GRID: a fixed (gx,gy,gz) grid of
 * the domain; ADAPTIVE: files of about particles_per_file particles from a k-d split. */
enum { LODEX_PARTITION_FACTOR = 0, LODEX_PARTITION_GRID = 1, LODEX_PARTITION_ADAPTIVE = 2 };
typedef struct lodex_partition {
  int32_t mode;
  uint32_t dims[3];
  uint64_t particles_per_file; /* ADAPTIVE only */
} lodex_partition;

/* Level-of-detail layout of the files. */
typedef struct lodex_lod_params {
  uint32_t scale;        /* S: growth from one level to the next (default 2) */
  uint64_t level0_max;   /* B0: particles in level 0 of a file (default 256) */
  uint64_t brick_target; /* particles per spatial brick; 0 (default): sized for the data */
  uint64_t seed;         /* of the shuffle within bricks (default 0) */
} lodex_lod_params;
/* Local. Defaults: GRID (1,1,1), the whole domain one partition (one file per step, no patches
 * needed: what a NULL partition gives, and Python's and C++'s default); S=2, B0=256, bricks sized
 * for the data, seed 0. */
LODEX_API int lodex_partition_init(lodex_partition* p);
LODEX_API int lodex_lod_params_init(lodex_lod_params* lod);

/* Collective (append mode). Defines a particle group; if it exists, checks that the definition
 * matches. One field must be "position" (3 components of F4 or F8). partition / lod: NULL for
 * the defaults (lodex_partition_init, lodex_lod_params_init). *out is borrowed from ds: valid until lodex_dataset_close. */
LODEX_API int lodex_particles_define(lodex_dataset* ds, const char* name, const lodex_field_def* fields,
                                     size_t num_fields, const double domain[6], const lodex_partition* partition,
                                     const lodex_lod_params* lod, lodex_particles** out);
/* A particle group's domain as simulations have it. box: x0 y0 z0 x1 y1 z1, the maximum inclusive
 * (a particle exactly on it is inside). periodic[a] nonzero: positions are wrapped into
 * [min, max) on that axis on write (the caller's arrays are not changed; the maximum maps to the
 * minimum), and a read box may reach past the domain there to get the wrapped images. automatic
 * nonzero: no fixed box (box unused, no periodic axis); each step's domain is the bounding box of
 * its particles (lodex_particles_step_domain). */
typedef struct lodex_domain {
  double box[6];
  int32_t periodic[3];
  int32_t automatic;
} lodex_domain;
/* Local. A fixed domain `box` (NULL: automatic) without periodic axes. */
LODEX_API int lodex_domain_init(lodex_domain* d, const double box[6]);
/* Collective (append mode). lodex_particles_define with a domain that may be periodic or
 * automatic (lodex_particles_define's domain is a fixed box without periodic axes). */
LODEX_API int lodex_particles_define_domain(lodex_dataset* ds, const char* name, const lodex_field_def* fields,
                                            size_t num_fields, const lodex_domain* domain,
                                            const lodex_partition* partition, const lodex_lod_params* lod,
                                            lodex_particles** out);
/* Local. An existing particle group; *out borrowed from ds as above. */
LODEX_API int lodex_particles_open(lodex_dataset* ds, const char* name, lodex_particles** out);

/* Local. The group's fields: their count, and the index-th (name borrowed from the group). */
LODEX_API int lodex_particles_field_count(const lodex_particles* g, size_t* count);
LODEX_API int lodex_particles_field(const lodex_particles* g, size_t index, lodex_field_def* out);
/* Local. The group's domain box (an automatic domain: the union of its steps' domains, all
 * zero before the first step). */
LODEX_API int lodex_particles_domain(const lodex_particles* g, double box[6]);
/* Local. Which axes are periodic (0 or 1 each), and whether the domain is automatic. */
LODEX_API int lodex_particles_domain_kind(const lodex_particles* g, int32_t periodic[3], int32_t* automatic);
/* Local. The domain a committed step was written in: the group's, or the step's own for an
 * automatic domain (LODEX_ERR_NOT_FOUND for a step not committed). */
LODEX_API int lodex_particles_step_domain(const lodex_particles* g, int64_t step, double box[6]);
/* Local. Committed steps, ascending: *count is set to their number; at most `capacity` are
 * copied to steps (which may be NULL when capacity is 0: call once to learn the size). */
LODEX_API int lodex_particles_steps(const lodex_particles* g, int64_t* steps, size_t capacity, size_t* count);

/* Collective over the dataset's communicator (append mode). Every rank passes the same step and
 * its own particles: any count, zero included; every field of the schema, each `rows` rows.
 * patch: this rank's box of the domain (NULL: the bounds of its particles). A step already
 * committed is LODEX_ERR_ALREADY_EXISTS. On failure nothing of the step is visible. */
LODEX_API int lodex_particles_write(lodex_particles* g, int64_t step, const lodex_field_data* fields, size_t num_fields,
                                    const double* patch);

/* Asynchronous write (collective, like lodex_particles_write): returns once the particles reached
 * the ranks that write them; the level-of-detail order, checksums and file writes run on a helper
 * thread (no MPI call on it), and the step commits at the group's next collective call: the next
 * write, lodex_pending_wait, an index build or lodex_dataset_close. One step is in flight per group
 * (the next write first completes it), or with a budget (lodex_dataset_set_pending_budget) up to
 * four, the oldest completing first to make room; lodex_pending_wait commits its step and the
 * group's steps before it. Errors of the pending step are returned there, on every rank,
 * and it commits nothing. flags: 0, or LODEX_WRITE_NO_COPY: the field arrays are read after the
 * call returns, so they must stay unchanged until the step is done (without it, what stays on this
 * rank is copied first and the arrays may be reused at once). *out (out may be NULL): a handle of
 * the step, released by lodex_pending_free. */
typedef struct lodex_pending lodex_pending;
enum { LODEX_WRITE_NO_COPY = 1 };
LODEX_API int lodex_particles_write_async(lodex_particles* g, int64_t step, const lodex_field_data* fields,
                                          size_t num_fields, const double* patch, unsigned flags, lodex_pending** out);
/* Asynchronous grid and series steps: lodex_grid_write_async and lodex_series_write_async, below,
 * return a handle of the same kind; lodex_pending_wait, _done and _free serve every kind.
 * Collective over the dataset's communicator: completes and commits the step (nothing when a later
 * call already did); its error on every rank. */
LODEX_API int lodex_pending_wait(lodex_pending* p);
/* Local: *done = 1 when this rank finished the step's files (or the step is committed), else 0. */
LODEX_API int lodex_pending_done(const lodex_pending* p, int* done);
/* Local: releases the handle (the step goes on; it commits at the group's next collective call). */
LODEX_API int lodex_pending_free(lodex_pending* p);
/* Collective (append mode), every rank the same value: bounds the bytes of asynchronous steps in
 * flight on each rank over every group of the dataset (Python's max_pending_bytes). An
 * asynchronous write that would pass the budget first completes the oldest steps in flight until
 * it fits; a step larger than the budget by itself is written within the call (0: every one).
 * With a budget a particle group keeps up to four steps in flight.
 * LODEX_PENDING_UNBOUNDED: no bound over the groups, one step in flight per group (the default).
 * Ranks passing different values: LODEX_ERR_INVALID_ARGUMENT on every rank. */
#define LODEX_PENDING_UNBOUNDED UINT64_MAX
LODEX_API int lodex_dataset_set_pending_budget(lodex_dataset* ds, uint64_t max_pending_bytes);
/* Local: *bytes = the bytes this rank passed to asynchronous steps still in flight. */
LODEX_API int lodex_dataset_pending_bytes(const lodex_dataset* ds, uint64_t* bytes);

/* Zero-copy input: a step's rows written in place, where the write reads them, instead of passed
 * in and copied there (docs/native.md, "Zero-copy input").
 *
 * Collective, like lodex_particles_write: every rank passes the step, its particle count (zero
 * included) and its patch (NULL: none). Opens the step; *out: a handle of its buffers. Where the
 * step can be planned before its particles exist (a fixed domain without periodic axes, a FACTOR
 * or GRID partition, a patch from every rank with particles, each rank's patch inside one
 * partition) it is planned here, and a rank whose rows go to a writer on its node gets buffers in
 * that writer's MPI-3 shared-memory window: the write then copies nothing of them. Elsewhere
 * (point-to-point exchange, a writer on another node, other domains and partitions) the buffers are
 * this rank's own memory, written as lodex_particles_write writes: the same call either way, the
 * same file bytes. flags: 0, or LODEX_BUFFERS_POSITION_COMPONENTS: the positions as three arrays,
 * fields "position/x", "position/y", "position/z" (interleaved by the write, as in
 * lodex_particles_write).
 *
 * While a group's buffers are open, its writes and buffers calls return LODEX_ERR_INVALID_ARGUMENT
 * on every rank, naming the open step: commit them, or free them uncommitted (the step is then
 * discarded). lodex_dataset_close discards buffers never committed. */
typedef struct lodex_buffers lodex_buffers;
enum { LODEX_BUFFERS_POSITION_COMPONENTS = 1 };
LODEX_API int lodex_particles_buffers(lodex_particles* g, int64_t step, uint64_t count, const double* patch,
                                      unsigned flags, lodex_buffers** out);
/* Local. *data: where this rank puts field `name`'s `count` rows (row-major, `components` values
 * of `dtype` each), which must be the schema's: else LODEX_ERR_INVALID_ARGUMENT naming both. Valid
 * until the commit (or free). */
LODEX_API int lodex_buffers_field(lodex_buffers* b, const char* name, int32_t dtype, uint32_t components, void** data);
/* Local. *in_window = 1 when some field of this rank lies in a shared window (the zero-copy path),
 * 0 when all are this rank's memory. */
LODEX_API int lodex_buffers_in_window(const lodex_buffers* b, int* in_window);
/* Collective. Checks the rows (positions finite, inside the domain and inside the patch given to
 * lodex_particles_buffers: the step was planned for it) and writes the step, as
 * lodex_particles_write. An error is returned on every rank and discards the step; earlier steps
 * are untouched. The buffers are not the caller's afterwards; a second commit is
 * LODEX_ERR_INVALID_ARGUMENT. */
LODEX_API int lodex_buffers_commit(lodex_buffers* b);
/* Collective. The same, as lodex_particles_write_async with LODEX_WRITE_NO_COPY (the buffers are
 * lodex's: nothing to keep unchanged by the caller). *out (may be NULL): as there. */
LODEX_API int lodex_buffers_commit_async(lodex_buffers* b, lodex_pending** out);
/* Local. Releases the handle; buffers not committed are discarded (nothing of the step is written). */
LODEX_API int lodex_buffers_free(lodex_buffers* b);

/* The last write's cost, reduced over ranks. For a series write: aggregators = ranks that wrote
 * chunks, files = window files written (0 while steps are only buffered). */
typedef struct lodex_write_profile {
  int64_t step;
  int32_t ranks;
  uint32_t aggregators;
  uint32_t files;
  uint64_t particles; /* particle writes; 0 for grids and series */
  uint64_t bytes;     /* written */
  double total_s;     /* slowest rank, end to end */
  double blocked_s;   /* the time the step's calls held the caller, slowest rank: total_s for a
                         synchronous write; for an asynchronous one its write_async call plus the
                         wait for its files at the commit */
} lodex_write_profile;
/* Local. The last write's profile; json (may be NULL) gets every phase's min/mean/max as JSON,
 * borrowed from the group until its next write. */
LODEX_API int lodex_particles_profile(const lodex_particles* g, lodex_write_profile* out, const char** json);

/* ---- Particle groups: reads ------------------------------------------------------------- */

typedef struct lodex_columns lodex_columns;

enum { LODEX_SPLIT_SPATIAL = 0, LODEX_SPLIT_BYTES = 1 };
/* A particle read. level and fraction are mutually exclusive ways of reading a fair sample. */
typedef struct lodex_read_request {
  const double* box;         /* 6 values, or NULL: the whole domain */
  const char* const* fields; /* num_fields names, or NULL / 0: every field */
  size_t num_fields;
  int32_t level;             /* level of detail 0.. (levels 0..level), or -1: none */
  double fraction;           /* 0 < f <= 1 of the particles, or 0: none */
  uint64_t lod_readers;      /* n of the paper's levels x(n,l) = n P S^l; 0: the readers' count */
  uint64_t lod_P;            /* P (default 32) */
  double lod_S;              /* S (default 2) */
  int32_t split;             /* how a collective read shares the query: LODEX_SPLIT_* */
} lodex_read_request;
/* Local. Everything, every field, no level or fraction, P=32, S=2, spatial split. */
LODEX_API int lodex_read_request_init(lodex_read_request* r);

/* comm == MPI_COMM_NULL: local, the whole answer here. Otherwise collective over comm: this
 * rank's disjoint part; all parts together are the whole answer. request NULL: everything.
 * *out: new, released by lodex_columns_free. */
LODEX_API int lodex_particles_read(const lodex_particles* g, int64_t step, const lodex_read_request* request,
                                   MPI_Comm comm, lodex_columns** out);
LODEX_API int lodex_particles_read_f(const lodex_particles* g, int64_t step, const lodex_read_request* request,
                                     MPI_Fint comm, lodex_columns** out);

/* One column of a result: `rows` x `components` values of `dtype`, row-major; data and name
 * borrowed from the columns object until it is freed. */
typedef struct lodex_column {
  const char* name;
  int32_t dtype;
  uint32_t components;
  uint64_t rows;
  const void* data;
  uint64_t bytes;
} lodex_column;
/* Local. Number of columns; the index-th; the one named `name` (LODEX_ERR_NOT_FOUND if absent). */
LODEX_API int lodex_columns_count(const lodex_columns* c, size_t* count);
LODEX_API int lodex_columns_get(const lodex_columns* c, size_t index, lodex_column* out);
LODEX_API int lodex_columns_find(const lodex_columns* c, const char* name, lodex_column* out);
/* Local. Copies column `name` into buffer, which must hold at least its bytes. */
LODEX_API int lodex_columns_copy(const lodex_columns* c, const char* name, void* buffer, uint64_t buffer_bytes);
/* Local. Releases c (NULL: nothing to do). */
LODEX_API int lodex_columns_free(lodex_columns* c);

/* What the last read cost this rank. */
typedef struct lodex_read_stats {
  uint64_t files_opened;
  uint64_t bytes_read;     /* everything read: metadata, heads, columns */
  uint64_t bytes_returned;
  uint64_t particles;
  uint64_t metadata_bytes;
  uint64_t head_bytes;
  uint64_t requests;
  uint64_t candidates;     /* particles in the bricks the query met (level-of-detail reads) */
  double seconds;
  uint32_t levels;         /* level-of-detail reads: the selection's levels; a level asked past the
                              last (levels - 1) read the whole selection; 0 for other reads */
} lodex_read_stats;
/* Local. The group's last read on this rank. */
LODEX_API int lodex_particles_read_stats(const lodex_particles* g, lodex_read_stats* out);

/* Progressive refinement: the query's levels coarse to fine, each next() returning only the
 * particles new at that level; all together are the full answer. */
typedef struct lodex_refinement lodex_refinement;
/* Like lodex_particles_read (request's level and fraction must be unset). *out: new, released by
 * lodex_refinement_free; it stays valid after the dataset is closed. */
LODEX_API int lodex_particles_refine(const lodex_particles* g, int64_t step, const lodex_read_request* request,
                                     MPI_Comm comm, lodex_refinement** out);
LODEX_API int lodex_particles_refine_f(const lodex_particles* g, int64_t step, const lodex_read_request* request,
                                       MPI_Fint comm, lodex_refinement** out);
/* Local. Number of levels; the level next() returns (== levels when done). */
LODEX_API int lodex_refinement_levels(const lodex_refinement* r, uint32_t* levels);
LODEX_API int lodex_refinement_next_level(const lodex_refinement* r, uint32_t* level);
/* Collective over the refinement's communicator. The next level's new particles (*out: new). */
LODEX_API int lodex_refinement_next(lodex_refinement* r, lodex_columns** out);
LODEX_API int lodex_refinement_read_stats(const lodex_refinement* r, lodex_read_stats* out);
LODEX_API int lodex_refinement_free(lodex_refinement* r);

/* ---- Particle groups: bitmap indexes and value queries --------------------------------- */

enum { LODEX_BINNING_PRECISION = 1, LODEX_BINNING_EQUAL_WEIGHT = 2 };
typedef struct lodex_index_stats {
  uint64_t steps, files, indexes, rows, column_bytes, index_bytes;
  double seconds; /* slowest rank */
} lodex_index_stats;
/* Collective over the dataset's communicator (append mode). Bitmap indexes of `fields` (NULL /
 * 0: every field) of `steps` (NULL / 0: every committed step). binning: LODEX_BINNING_PRECISION
 * with param significant digits (1..9), LODEX_BINNING_EQUAL_WEIGHT with param bins, or 0 for
 * the default (3 digits). stats may be NULL. */
LODEX_API int lodex_particles_build_index(lodex_particles* g, const char* const* fields, size_t num_fields, int binning,
                                          uint32_t param, const int64_t* steps, size_t num_steps,
                                          lodex_index_stats* stats);

typedef struct lodex_query_result lodex_query_result;
/* A value query ("energy > 1.5 && x < 0.2": docs/queries.md) over one step. */
typedef struct lodex_query {
  const char* text;
  const double* box;         /* only particles inside it, or NULL */
  int32_t level;             /* levels of detail 0..level: the particles a read at that level returns
                                (P 32, S 2, readers = the communicator's size), filtered; or -1 */
  const char* const* fields; /* fields of the matches to return; NULL / 0: no data */
  size_t num_fields;
  int32_t rows;              /* 0: count only */
  int32_t use_index;         /* 0: scan, for comparison */
} lodex_query;
/* Local. No box, no level, no fields, rows and index on. */
LODEX_API int lodex_query_init(lodex_query* q);
/* comm == MPI_COMM_NULL: local. Otherwise collective: the step's files are shared among the
 * ranks, each returning its files' matches; the count is the total. *out: new, released by
 * lodex_query_result_free. */
LODEX_API int lodex_particles_query(const lodex_particles* g, int64_t step, const lodex_query* q, MPI_Comm comm,
                                    lodex_query_result** out);
LODEX_API int lodex_particles_query_f(const lodex_particles* g, int64_t step, const lodex_query* q, MPI_Fint comm,
                                      lodex_query_result** out);
/* Local. Matches over all ranks, and of this rank's files. */
LODEX_API int lodex_query_result_count(const lodex_query_result* r, uint64_t* count, uint64_t* local_count);
/* Local. This rank's files with matches, and the index-th: its name and matching rows
 * (ascending), borrowed from r. */
LODEX_API int lodex_query_result_file_count(const lodex_query_result* r, size_t* count);
LODEX_API int lodex_query_result_file(const lodex_query_result* r, size_t index, const char** file,
                                      const uint32_t** rows, uint64_t* num_rows);
/* Local. The requested fields of the matches, file after file; borrowed from r. */
LODEX_API int lodex_query_result_columns(const lodex_query_result* r, const lodex_columns** columns);
/* Local. Notes on what was scanned instead of indexed, and why; borrowed from r. */
LODEX_API int lodex_query_result_note_count(const lodex_query_result* r, size_t* count);
LODEX_API int lodex_query_result_note(const lodex_query_result* r, size_t index, const char** note);
typedef struct lodex_query_stats {
  uint64_t files, files_pruned, files_indexed, files_scanned;
  uint64_t rows_checked, sure_rows, index_bytes, data_bytes, requests;
  double seconds;
} lodex_query_stats;
LODEX_API int lodex_query_result_stats(const lodex_query_result* r, lodex_query_stats* out);
LODEX_API int lodex_query_result_free(lodex_query_result* r);

/* ---- Grid variables (IDX) --------------------------------------------------------------- */

typedef struct lodex_grid lodex_grid;
typedef struct lodex_grid_def {
  uint64_t dims[3];               /* samples along x, y, z (1 beyond ndims) */
  int32_t ndims;                  /* 1..3 */
  const lodex_field_def* fields;  /* at least one */
  size_t num_fields;
  const char* bitmask;            /* NULL / "": derived from the ranks' layout at the first write */
  int32_t bits_per_block;         /* 0: 15, or the whole index if shorter */
  uint64_t blocks_per_file;       /* default 256 */
  const char* aggregation;        /* "localized" (default) */
  uint32_t partitions;            /* a power of two (default 1) */
  const char* index_space;        /* "global" (default: one IDX dataset) or "local" */
  int32_t zip;                    /* zlib blocks */
} lodex_grid_def;
/* Local. dims (1,1,1), ndims 3, no fields, and the defaults above. */
LODEX_API int lodex_grid_def_init(lodex_grid_def* def);
/* Collective (append mode). Defines a grid variable (an existing one must match). *out borrowed
 * from ds until lodex_dataset_close. */
LODEX_API int lodex_grid_define(lodex_dataset* ds, const char* name, const lodex_grid_def* def, lodex_grid** out);
/* Local. An existing grid variable. */
LODEX_API int lodex_grid_open(lodex_dataset* ds, const char* name, lodex_grid** out);

typedef struct lodex_grid_info {
  uint64_t dims[3];
  int32_t ndims;
  int32_t max_resolution;  /* -1 until the first write fixes the bitmask */
  int32_t bits_per_block;
  uint32_t partitions;
  int32_t local_index_space; /* 1: one IDX dataset per partition */
  size_t num_fields;
} lodex_grid_info;
LODEX_API int lodex_grid_info_get(const lodex_grid* g, lodex_grid_info* out);
/* Local. The index-th field (name borrowed from g). */
LODEX_API int lodex_grid_field(const lodex_grid* g, size_t index, lodex_field_def* out);
/* Local. Committed steps, as lodex_particles_steps. */
LODEX_API int lodex_grid_steps(const lodex_grid* g, int64_t* steps, size_t capacity, size_t* count);
/* Local. The .idx path OpenVisus opens (global index space); borrowed from g. */
LODEX_API int lodex_grid_idx_path(const lodex_grid* g, const char** path);

/* Collective over the dataset's communicator (append mode). Every rank passes the same step and
 * its box (empty when it holds nothing); each field's rows = the box's samples, row-major
 * (z, y, x, components). The boxes must tile the grid. */
LODEX_API int lodex_grid_write(lodex_grid* g, int64_t step, const int64_t box[6], const lodex_field_data* fields,
                               size_t num_fields);
/* Asynchronous grid write (collective, like lodex_grid_write): the exchanges (restructure, hz
 * encoding, aggregation, compression) run in the call, so the field arrays are not read after it
 * returns, with or without LODEX_WRITE_NO_COPY (flags: 0 or LODEX_WRITE_NO_COPY, accepted for
 * symmetry with particles); the block files and their checksums are written on a helper thread (no
 * MPI call on it), and the step commits at the grid's next collective call: the next write,
 * lodex_pending_wait, a truncate or lodex_dataset_close. One step is in flight per grid. Errors of
 * the pending step are returned there, on every rank, and it commits nothing. *out (out may be
 * NULL): a handle of the step, released by lodex_pending_free. */
LODEX_API int lodex_grid_write_async(lodex_grid* g, int64_t step, const int64_t box[6], const lodex_field_data* fields,
                                     size_t num_fields, unsigned flags, lodex_pending** out);
LODEX_API int lodex_grid_profile(const lodex_grid* g, lodex_write_profile* out, const char** json);

/* One rank's part of a grid read: its box (empty when it gets nothing), the shape of its
 * samples at the resolution (x, y, z counts), the field's type, the bytes of the result. */
typedef struct lodex_grid_part {
  int64_t box[6];
  uint64_t shape[3];
  int32_t dtype;
  uint32_t components;
  int32_t resolution;
  uint64_t bytes;
} lodex_grid_part;
typedef struct lodex_grid_stats {
  uint64_t files_opened, blocks_read, bytes_read, bytes_returned;
} lodex_grid_stats;
/* Local (comm only names this rank's share). What lodex_grid_read with the same arguments
 * returns on this rank: the whole box when comm is MPI_COMM_NULL or of one rank, else an equal
 * share of the resolution's lattice planes along the slowest axis. field NULL: the first field;
 * box NULL: the whole grid; resolution -1: full (0..max_resolution: the strided samples of IDX
 * levels 0..resolution, as OpenVisus's read(max_resolution=r)). */
LODEX_API int lodex_grid_read_part(const lodex_grid* g, const char* field, int64_t step, const int64_t* box,
                                   int resolution, MPI_Comm comm, lodex_grid_part* out);
LODEX_API int lodex_grid_read_part_f(const lodex_grid* g, const char* field, int64_t step, const int64_t* box,
                                     int resolution, MPI_Fint comm, lodex_grid_part* out);
/* comm == MPI_COMM_NULL: local; else collective. Reads this rank's part into buffer (at least
 * part.bytes). stats may be NULL. */
LODEX_API int lodex_grid_read(const lodex_grid* g, const char* field, int64_t step, const int64_t* box, int resolution,
                              MPI_Comm comm, void* buffer, uint64_t buffer_bytes, lodex_grid_stats* stats);
LODEX_API int lodex_grid_read_f(const lodex_grid* g, const char* field, int64_t step, const int64_t* box,
                                int resolution, MPI_Fint comm, void* buffer, uint64_t buffer_bytes,
                                lodex_grid_stats* stats);

/* Any IDX dataset on disk (written by lodex, OpenVisus or PIDX), for reads. */
typedef struct lodex_idx lodex_idx;
/* Local. Opens and validates the .idx header. *out: new, released by lodex_idx_close. Reads open
 * block files only under the .idx file's directory (relative templates resolve against it, links
 * are resolved); lodex_idx_open_flags with LODEX_ALLOW_OUTSIDE lifts that. */
LODEX_API int lodex_idx_open(const char* idx_path, lodex_idx** out);
LODEX_API int lodex_idx_open_flags(const char* idx_path, unsigned flags, lodex_idx** out);
/* Local. Shape and layout (the same struct as grids; partitions 1, global index space). */
LODEX_API int lodex_idx_info_get(const lodex_idx* d, lodex_grid_info* out);
LODEX_API int lodex_idx_field(const lodex_idx* d, size_t index, lodex_field_def* out);
/* As the grid calls, with `time` the IDX time step. */
LODEX_API int lodex_idx_read_part(const lodex_idx* d, const char* field, int64_t time, const int64_t* box,
                                  int resolution, MPI_Comm comm, lodex_grid_part* out);
LODEX_API int lodex_idx_read_part_f(const lodex_idx* d, const char* field, int64_t time, const int64_t* box,
                                    int resolution, MPI_Fint comm, lodex_grid_part* out);
LODEX_API int lodex_idx_read(const lodex_idx* d, const char* field, int64_t time, const int64_t* box, int resolution,
                             MPI_Comm comm, void* buffer, uint64_t buffer_bytes, lodex_grid_stats* stats);
LODEX_API int lodex_idx_read_f(const lodex_idx* d, const char* field, int64_t time, const int64_t* box, int resolution,
                               MPI_Fint comm, void* buffer, uint64_t buffer_bytes, lodex_grid_stats* stats);
LODEX_API int lodex_idx_close(lodex_idx* d);

/* ---- Series (STAR: spatial + temporal aggregation) -------------------------------------- */

typedef struct lodex_series lodex_series;
typedef struct lodex_series_var {
  const char* name;
  int32_t dtype;
  int32_t ndim; /* 3: (z, y, x); 2: (y, x) */
} lodex_series_var;
typedef struct lodex_series_def {
  int64_t dims[3];                    /* x, y, z */
  const lodex_series_var* variables;
  size_t num_variables;
  uint64_t memory_budget;             /* bytes a rank may buffer (default 256 MiB) */
  int32_t d_tar;                      /* steps per window, >= 1; 0: chosen from the cost model */
  int32_t d_sar;                      /* spatial aggregation levels, >= 0; -1: chosen */
  double bw_io, cc, ts;               /* file system costs of the cost model (B/s, s, s) */
} lodex_series_def;
/* Local. dims (1,1,1), no variables, 256 MiB, chosen degrees, bw_io 500e6, cc 1e-3, ts 5e-3. */
LODEX_API int lodex_series_def_init(lodex_series_def* def);
/* Collective (append mode). Defines a series (an existing one must match); *out borrowed from ds. */
LODEX_API int lodex_series_define(lodex_dataset* ds, const char* name, const lodex_series_def* def, lodex_series** out);
LODEX_API int lodex_series_open(lodex_dataset* ds, const char* name, lodex_series** out);

typedef struct lodex_series_info {
  int64_t dims[3];
  size_t num_variables;
  uint32_t d_tar, d_sar; /* 0 until the first write fixes them */
} lodex_series_info;
LODEX_API int lodex_series_info_get(const lodex_series* s, lodex_series_info* out);
/* Local. The index-th variable (name borrowed from s). */
LODEX_API int lodex_series_variable(const lodex_series* s, size_t index, lodex_series_var* out);
/* Local. Flushed steps (readable by anyone), as lodex_particles_steps. */
LODEX_API int lodex_series_steps(const lodex_series* s, int64_t* steps, size_t capacity, size_t* count);

/* Collective over the dataset's communicator (append mode). Every rank passes the same step
 * (increasing), its box (the same at every step) and every variable over it: rows = the box's
 * samples ((y, x) for 2-D variables), components 1. The write that completes d_tar steps writes
 * them as one window file. */
LODEX_API int lodex_series_write(lodex_series* s, int64_t step, const int64_t box[6], const lodex_field_data* vars,
                                 size_t num_vars);
/* Asynchronous series write (collective, like lodex_series_write): the step is copied into the
 * window buffers in the call (the arrays are not read after it, whatever flags say: 0 or
 * LODEX_WRITE_NO_COPY); a step that completes a window also aggregates it there, and only the
 * window's file writes and block checksums run on a helper thread. The window commits at the
 * series' next collective call: the next write, flush, truncate, lodex_pending_wait or
 * lodex_dataset_close. An error of the pending window is returned there, on every rank: nothing of
 * it commits, the step that completed it is lost and its earlier steps stay buffered. A step that
 * completes no window is done when the call returns. *out (may be NULL): as for grids. */
LODEX_API int lodex_series_write_async(lodex_series* s, int64_t step, const int64_t box[6],
                                       const lodex_field_data* vars, size_t num_vars, unsigned flags,
                                       lodex_pending** out);
/* Collective. Writes the buffered steps now (lodex_dataset_close does it too). */
LODEX_API int lodex_series_flush(lodex_series* s);
LODEX_API int lodex_series_profile(const lodex_series* s, lodex_write_profile* out, const char** json);

/* One rank's part of a series read: num_steps steps (their values via lodex_series_read_part's
 * part_steps), its box, shape (steps, z, y, x) with z = 1 for 2-D variables, and bytes. */
typedef struct lodex_series_part {
  size_t num_steps;
  int64_t box[6];
  uint64_t shape[4];
  int32_t dtype;
  uint64_t bytes;
} lodex_series_part;
/* Local. What lodex_series_read with the same arguments returns here: steps NULL / 0 means every
 * flushed step; with a communicator of n > 1 ranks, a share of the steps when there are at least
 * n, else of the slowest spatial axis. part_steps (may be NULL) receives at most
 * part_steps_capacity of this rank's steps. */
LODEX_API int lodex_series_read_part(const lodex_series* s, const char* var, const int64_t* steps, size_t num_steps,
                                     const int64_t* box, MPI_Comm comm, lodex_series_part* out, int64_t* part_steps,
                                     size_t part_steps_capacity);
LODEX_API int lodex_series_read_part_f(const lodex_series* s, const char* var, const int64_t* steps, size_t num_steps,
                                       const int64_t* box, MPI_Fint comm, lodex_series_part* out, int64_t* part_steps,
                                       size_t part_steps_capacity);
/* comm == MPI_COMM_NULL: local; else collective. Reads this rank's part into buffer (at least
 * part.bytes), C order (steps, z, y, x). merge_gap: bytes between needed ranges read as one
 * request; -1: the series' default (bw_io x ts). */
LODEX_API int lodex_series_read(const lodex_series* s, const char* var, const int64_t* steps, size_t num_steps,
                                const int64_t* box, int64_t merge_gap, MPI_Comm comm, void* buffer,
                                uint64_t buffer_bytes);
LODEX_API int lodex_series_read_f(const lodex_series* s, const char* var, const int64_t* steps, size_t num_steps,
                                  const int64_t* box, int64_t merge_gap, MPI_Fint comm, void* buffer,
                                  uint64_t buffer_bytes);
typedef struct lodex_series_stats {
  uint64_t windows, chunks, blocks, requests, head_requests, checksum_requests;
  uint64_t bytes_read, head_bytes, checksum_bytes, merge_gap, bytes_returned;
  double seconds;
} lodex_series_stats;
/* Local. The series' last read on this rank. */
LODEX_API int lodex_series_read_stats(const lodex_series* s, lodex_series_stats* out);

/* ---- Restarts: removing the steps after a checkpoint ------------------------------------ */

/* `after` of a truncate that removes every step. */
enum { LODEX_TRUNCATE_ALL = -1 };
/* Collective over the dataset's communicator (append mode), every rank with the same `after`.
 * Removes every committed step after `after` (the steps up to it stay; a step never written works
 * too; LODEX_TRUNCATE_ALL removes every step) with its files and bitmap indexes, so that a
 * simulation restarted from its checkpoint of step `after` can write the later steps again.
 * Atomic: one manifest replace; a writer killed during it leaves the old or the new state.
 * removed (may be NULL): the number of steps removed. after < -1, a dataset opened for reading or
 * ranks passing different values: LODEX_ERR_INVALID_ARGUMENT on every rank, nothing removed.
 * particles: a pending asynchronous step is completed first. grid: the .idx time range ends at
 * the last step kept. series: buffered steps after `after` are dropped; windows go whole, so an
 * `after` with steps of one window on both sides is LODEX_ERR_INVALID_ARGUMENT (the message names
 * the window and the steps a truncate may keep). dataset: every group at once (one replace). */
LODEX_API int lodex_particles_truncate(lodex_particles* g, int64_t after, uint64_t* removed);
LODEX_API int lodex_grid_truncate(lodex_grid* g, int64_t after, uint64_t* removed);
LODEX_API int lodex_series_truncate(lodex_series* s, int64_t after, uint64_t* removed);
LODEX_API int lodex_dataset_truncate(lodex_dataset* ds, int64_t after, uint64_t* removed);

#ifdef __cplusplus
}
#endif

#endif /* LODEX_H */
