"""Fills lodex.f90.in's @GENERICS@ and @SPECIFICS@ (kind- and rank-specific procedures).

    python3 generate.py lodex.f90.in lodex.f90   (run by CMake: src/fortran/CMakeLists.txt)
"""
import sys

KINDS = [("r4", "real(real32)", "LODEX_F4"), ("r8", "real(real64)", "LODEX_F8"),
         ("i4", "integer(int32)", "LODEX_I4"), ("i8", "integer(int64)", "LODEX_I8")]

def dims(r):
    return ",".join([":"] * r)

def alloc(r):
    return ", ".join(f"shp({i + 1})" for i in range(r))

def names(prefix, ranks):
    return [f"{prefix}_{k}_{r}" for k, _, _ in KINDS for r in ranks]

def iface(generic, procs, doc):
    lines = [f"  {d}" for d in doc]
    lines.append(f"  interface {generic}")
    for i in range(0, len(procs), 4):
        lines.append("    module procedure " + ", ".join(procs[i:i + 4]))
    lines.append("  end interface")
    lines.append(f"  public :: {generic}")
    return "\n".join(lines)

generics = "\n".join([
    iface("lodex_field", names("field", [1, 2, 3, 4]), [
        "!> lodex_field(name, array [, dtype]): one field of a particle, grid or series write, over",
        "!> array (real32, real64, int32, int64; rank 1 to 4) as it is in memory. dtype relabels the",
        "!> elements with a type of the same size (e.g. LODEX_U8 for int64 ids)."]),
    iface("lodex_columns_get", names("columns_get", [1, 2]), [
        "!> lodex_columns_get(cols, name, values [, ierr]): local; allocates values (c, n) or (n*c)",
        "!> and copies column `name` of a particle read into it."]),
    iface("lodex_particles_read", names("particles_read", [1, 2]), [
        "!> lodex_particles_read(g, step, field, values [, box, level, fraction, lod_readers, lod_p,",
        "!> lod_s, split, comm, ierr]): reads one field into values (c, n) or (n*c), allocated here",
        "!> (read, then columns, then copy). Collective when comm is given: this rank's part. To read",
        "!> several fields of the same particles, use lodex_particles_read_columns."]),
    iface("lodex_buffers_field", names("buffers_field", [1, 2]), [
        "!> lodex_buffers_field(buffers, name, values [, ierr]): local; values points at this rank's",
        "!> rows of field `name` in the buffers of lodex_particles_buffers: (c, n), or (n*c); fill them",
        "!> in place. The kind must be the field's (else LODEX_ERR_INVALID_ARGUMENT naming both)."]),
    iface("lodex_grid_read", names("grid_read", [1, 2, 3, 4]), [
        "!> lodex_grid_read(g, field, step, values [, box, resolution, comm, part, stats, ierr]):",
        "!> reads this rank's part (lodex_grid_read_part) of a field into values, allocated here:",
        "!> (x, y, z), (c, x, y, z) for c components, (x, y) or (x) when the part has one z plane",
        "!> (and one y row). comm absent: local, the whole box; else collective."]),
    iface("lodex_idx_read", names("idx_read", [1, 2, 3, 4]), [
        "!> lodex_idx_read(d, field, time, values [, box, resolution, comm, part, stats, ierr]): as",
        "!> lodex_grid_read, for any IDX dataset opened with lodex_idx_open."]),
    iface("lodex_series_read", names("series_read", [3, 4]), [
        "!> lodex_series_read(s, var, values [, steps, box, merge_gap, comm, part, part_steps, ierr]):",
        "!> reads this rank's part (lodex_series_read_part) into values, allocated here: (x, y, z,",
        "!> steps), or (x, y, steps) when it has one z plane (2-D variables). steps absent: every",
        "!> flushed step. comm absent: local; else collective. merge_gap: bytes between needed",
        "!> ranges read as one request (absent: the series' default)."]),
])

out = []
for k, T, D in KINDS:
    for r in [1, 2, 3, 4]:
        out.append(f"""
  function field_{k}_{r}(name, array, dtype) result(f)
    character(*), intent(in) :: name
    {T}, intent(in), target :: array({dims(r)})
    integer, intent(in), optional :: dtype
    type(lodex_field_data) :: f
    f%name = trim(name)
    f%dtype = {D}
    if (present(dtype)) f%dtype = dtype
    f%elem_bytes = storage_size(array) / 8
    f%count = size(array, kind=int64)
    if (f%count == 0) return
    if (is_contiguous(array)) then
      f%data = c_loc(array)
    else
      allocate(f%copy(f%count * f%elem_bytes))
      f%copy = transfer(array, f%copy)
    end if
  end function""")
for k, T, D in KINDS:
    for r in [1, 2]:
        out.append(f"""
  subroutine columns_get_{k}_{r}(cols, name, values, ierr)
    type(lodex_columns), intent(in) :: cols
    character(*), intent(in) :: name
    {T}, allocatable, target, intent(out) :: values({dims(r)})
    integer, intent(out), optional :: ierr
    integer(int64) :: shp(2)
    integer(c_int) :: status
    character(:), allocatable :: note
    type(c_ptr) :: p
    call column_extents(cols, name, {D}, {r}, shp, status, note)
    if (status /= LODEX_OK .or. len(note) > 0) then
      call column_copy(cols, name, c_null_ptr, 0_int64, status, note, ierr)
      return
    end if
    allocate(values({alloc(r)}))
    p = c_null_ptr
    if (size(values) > 0) p = c_loc(values)
    call column_copy(cols, name, p, size(values, kind=int64) * (storage_size(values) / 8), status, note, ierr)
  end subroutine

  subroutine particles_read_{k}_{r}(g, step, field, values, box, level, fraction, lod_readers, lod_p, lod_s, &
                                  split, comm, ierr)
    type(lodex_particles), intent(in) :: g
    integer, intent(in) :: step
    character(*), intent(in) :: field
    {T}, allocatable, intent(out) :: values({dims(r)})
    real(real64), intent(in), optional :: box(6), fraction, lod_s
    integer, intent(in), optional :: level, lod_readers, lod_p, split, comm
    integer, intent(out), optional :: ierr
    type(lodex_columns) :: cols
    integer :: status, status2
    call read_one_field(g, step, field, box, level, fraction, lod_readers, lod_p, lod_s, split, comm, cols, status)
    if (status == LODEX_OK) then
      call columns_get_{k}_{r}(cols, field, values, status)
      call lodex_columns_free(cols, status2)
    end if
    call report(status, ierr)
  end subroutine""")
for k, T, D in KINDS:
    for r in [1, 2]:
        shape = "[int(c, int64), b%count]" if r == 2 else "[b%count * c]"
        out.append(f"""
  subroutine buffers_field_{k}_{r}(b, name, values, ierr)
    type(lodex_buffers), intent(in) :: b
    character(*), intent(in) :: name
    {T}, pointer, intent(out) :: values({dims(r)})
    integer, intent(out), optional :: ierr
    integer :: c
    integer(c_int) :: status
    type(c_ptr) :: p
    c = components_of(SRC_PARTICLES, b%group, name)
    p = c_null_ptr
    status = c_lodex_buffers_field(b%ptr, c_str(name), {D}, int(c, c_int32_t), p)
    nullify(values)
    if (status == LODEX_OK .and. c_associated(p)) call c_f_pointer(p, values, {shape})
    call finish(status, ierr)
  end subroutine""")
for src, typ, h, stepname in [("grid", "lodex_grid", "g", "step"), ("idx", "lodex_idx", "d", "time")]:
    SRC = "SRC_GRID" if src == "grid" else "SRC_IDX"
    for k, T, D in KINDS:
        for r in [1, 2, 3, 4]:
            out.append(f"""
  subroutine {src}_read_{k}_{r}({h}, field, {stepname}, values, box, resolution, comm, part, stats, ierr)
    type({typ}), intent(in) :: {h}
    character(*), intent(in) :: field
    integer, intent(in) :: {stepname}
    {T}, allocatable, target, intent(out) :: values({dims(r)})
    integer, intent(in), optional :: box(6), resolution, comm
    type(lodex_grid_part), intent(out), optional :: part
    type(lodex_grid_stats), intent(out), optional :: stats
    integer, intent(out), optional :: ierr
    type(lodex_grid_part) :: p
    integer(int64) :: shp(4)
    integer :: why
    character(:), allocatable :: note
    type(c_ptr) :: buf
    call gridlike_part({SRC}, {h}%ptr, field, {stepname}, box, resolution, comm, {D}, {r}, p, shp, why, note)
    allocate(values({alloc(r)}))
    buf = c_null_ptr
    if (size(values) > 0) buf = c_loc(values)
    call gridlike_read({SRC}, {h}%ptr, field, {stepname}, box, resolution, comm, buf, &
                       size(values, kind=int64) * (storage_size(values) / 8), why, note, stats, ierr)
    if (present(part)) part = p
  end subroutine""")
for k, T, D in KINDS:
    for r in [3, 4]:
        out.append(f"""
  subroutine series_read_{k}_{r}(s, var, values, steps, box, merge_gap, comm, part, part_steps, ierr)
    type(lodex_series), intent(in) :: s
    character(*), intent(in) :: var
    {T}, allocatable, target, intent(out) :: values({dims(r)})
    integer, intent(in), optional :: steps(:), box(6), merge_gap, comm
    type(lodex_series_part), intent(out), optional :: part
    integer, allocatable, intent(out), optional :: part_steps(:)
    integer, intent(out), optional :: ierr
    type(lodex_series_part) :: p
    integer(int64) :: shp(4)
    integer :: why
    character(:), allocatable :: note
    type(c_ptr) :: buf
    call series_part(s, var, steps, box, comm, {D}, {r}, p, part_steps, shp, why, note)
    allocate(values({alloc(r)}))
    buf = c_null_ptr
    if (size(values) > 0) buf = c_loc(values)
    call series_read_into(s, var, steps, box, merge_gap, comm, buf, &
                          size(values, kind=int64) * (storage_size(values) / 8), why, note, ierr)
    if (present(part)) part = p
  end subroutine""")

src = open(sys.argv[1]).read()
src = src.replace("!@GENERICS@", generics).replace("!@SPECIFICS@", "\n".join(out).lstrip("\n"))
open(sys.argv[2], "w").write(src)
