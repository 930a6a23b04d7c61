! S3D-like grid from Fortran: the ranks decompose a 3-D grid (an MPI_Dims_create lattice of
! boxes), each fills its box with analytic values, and all write two steps of the grid variable
! "flow" (fields "temperature" f8 and "pressure" f4) into one lodex dataset. The program then
! reads the whole grid back at full resolution collectively (each rank the slab that
! lodex_grid_read_part gives it) and at a coarser resolution on rank 0 alone (no communicator),
! and checks every value against the formulas:
!
! temperature(x, y, z, step) = 1000 + x + 100*y + 10000*z + 0.25*step   (x, y, z from 0; real64)
! pressure(x, y, z, step) = 0.5 * mod(x + 3*y + 5*z + 7*step, 4096)   (x, y, z from 0; real32)
!
! Both are exact in their types. A read at resolution r returns the lattice points (i*sx, j*sy,
! k*sz) of the grid (IDX levels past r are missing, each doubling the spacing on its axis).
!
!   mpiexec -n 4 ./s3d_grid OUT_DIR [X Y Z]          (default 32 24 16)
!
! Output lines are "key value ..." for scripts; the exit code is non-zero when a check fails.
program s3d_grid
  use mpi
  use lodex
  use, intrinsic :: iso_fortran_env, only: real32, real64, int64, error_unit
  implicit none
  integer, parameter :: NSTEPS = 2
  integer :: ierr, rank, nranks, i, step, errs, coarse, values
  integer :: dims(3), pdims(3), coords(3), box(6), lo(3), hi(3), cart
  character(len=4096) :: out, arg
  type(lodex_dataset) :: ds
  type(lodex_grid) :: g
  type(lodex_grid_info) :: info
  type(lodex_grid_part) :: part
  real(real64), allocatable, target :: temperature(:, :, :)
  real(real32), allocatable, target :: pressure(:, :, :)
  real(real64), allocatable :: t_read(:, :, :)
  real(real32), allocatable :: p_read(:, :, :)
  integer, allocatable :: steps(:)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  if (command_argument_count() /= 1 .and. command_argument_count() /= 4) then
    if (rank == 0) write (error_unit, '(a)') 'usage: s3d_grid OUT_DIR [X Y Z]'
    call MPI_Finalize(ierr)
    error stop 2
  end if
  call get_command_argument(1, out)
  dims = [32, 24, 16]
  if (command_argument_count() == 4) then
    do i = 1, 3
      call get_command_argument(1 + i, arg)
      read (arg, *) dims(i)
    end do
  end if

  ! The rank lattice: pdims(1) boxes along x, pdims(2) along y, pdims(3) along z. MPI_Cart_coords
  ! numbers ranks row-major (the last dimension fastest).
  pdims = 0
  call MPI_Dims_create(nranks, 3, pdims, ierr)
  call MPI_Cart_create(MPI_COMM_WORLD, 3, pdims, [.false., .false., .false.], .false., cart, ierr)
  call MPI_Cart_coords(cart, rank, 3, coords, ierr)
  call MPI_Comm_free(cart, ierr)
  lo = (coords * dims) / pdims
  hi = ((coords + 1) * dims) / pdims
  box = [lo, hi]                       ! [x0, y0, z0, x1, y1, z1], samples from 0, max exclusive
  if (rank == 0) then
    print '(a,3(1x,i0))', 'dims', dims
    print '(a,3(1x,i0))', 'ranks', pdims
  end if

  ! ---- Write: every rank its box, two steps, both fields in one collective call ------------
  allocate(temperature(lo(1):hi(1) - 1, lo(2):hi(2) - 1, lo(3):hi(3) - 1))
  allocate(pressure(lo(1):hi(1) - 1, lo(2):hi(2) - 1, lo(3):hi(3) - 1))
  call lodex_dataset_create(ds, trim(out), comm=MPI_COMM_WORLD)
  call lodex_grid_define(g, ds, 'flow', dims, [character(len=11) :: 'temperature', 'pressure'], &
                         [LODEX_F8, LODEX_F4])
  do step = 0, NSTEPS - 1
    call fill(step, temperature, pressure)
    ! Fortran (x, y, z) arrays are the grid's C (z, y, x) layout: passed as they are.
    call lodex_grid_write(g, step, box, [lodex_field('temperature', temperature), &
                                         lodex_field('pressure', pressure)])
  end do
  call lodex_dataset_close(ds)

  ! ---- Read at full resolution, collectively: each rank gets a slab of z planes ------------
  errs = 0
  call lodex_dataset_open(ds, trim(out), comm=MPI_COMM_WORLD)
  call lodex_grid_open(g, ds, 'flow')
  call lodex_grid_steps(g, steps)
  if (size(steps) /= NSTEPS) errs = errs + 1
  do step = 0, NSTEPS - 1
    call lodex_grid_read_part(g, 'temperature', step, part, comm=MPI_COMM_WORLD)
    call lodex_grid_read(g, 'temperature', step, t_read, comm=MPI_COMM_WORLD)
    call lodex_grid_read(g, 'pressure', step, p_read, comm=MPI_COMM_WORLD)
    errs = errs + check(step, part, [1, 1, 1], t_read, p_read)
    ! The ranks' slabs together are the whole grid.
    call MPI_Allreduce(size(t_read), values, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    if (values /= product(dims)) errs = errs + 1
  end do
  call lodex_dataset_close(ds)

  ! ---- Read at a coarser resolution on rank 0 alone: no communicator, no other rank --------
  if (rank == 0) then
    call lodex_dataset_open(ds, trim(out))
    call lodex_grid_open(g, ds, 'flow')
    call lodex_grid_info_get(g, info)
    coarse = max(info%max_resolution - 3, 0)
    print '(a,1x,i0)', 'max_resolution', info%max_resolution
    do step = 0, NSTEPS - 1
      call lodex_grid_read(g, 'temperature', step, t_read, resolution=coarse, part=part)
      call lodex_grid_read(g, 'pressure', step, p_read, resolution=coarse)
      errs = errs + check(step, part, strides(part), t_read, p_read)
    end do
    print '(a,1x,i0,1x,a,3(1x,i0),1x,a,3(1x,i0))', 'resolution', coarse, 'shape', int(part%shape), &
          'stride', strides(part)
    call lodex_dataset_close(ds)
  end if

  call MPI_Allreduce(MPI_IN_PLACE, errs, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    print '(a,1x,i0)', 'steps', NSTEPS
    if (errs == 0) then
      print '(a)', 'check ok'
    else
      print '(a,1x,i0)', 'check failed', errs
    end if
  end if
  call MPI_Finalize(ierr)
  if (errs /= 0) error stop 1

contains

  pure real(real64) function temperature_at(x, y, z, step)
    integer, intent(in) :: x, y, z, step
    temperature_at = 1000.0_real64 + x + 100.0_real64 * y + 10000.0_real64 * z + 0.25_real64 * step
  end function

  pure real(real32) function pressure_at(x, y, z, step)
    integer, intent(in) :: x, y, z, step
    pressure_at = 0.5_real32 * real(mod(x + 3 * y + 5 * z + 7 * step, 4096), real32)
  end function

  subroutine fill(step, t, p)
    integer, intent(in) :: step
    real(real64), intent(out) :: t(lo(1):, lo(2):, lo(3):)
    real(real32), intent(out) :: p(lo(1):, lo(2):, lo(3):)
    integer :: x, y, z
    do z = lo(3), hi(3) - 1
      do y = lo(2), hi(2) - 1
        do x = lo(1), hi(1) - 1
          t(x, y, z) = temperature_at(x, y, z, step)
          p(x, y, z) = pressure_at(x, y, z, step)
        end do
      end do
    end do
  end subroutine

  ! Spacing of a whole-grid read's samples on each axis: the power of two s with
  ! ceil(dims / s) == shape (1 when the axis has one sample).
  function strides(p) result(s)
    type(lodex_grid_part), intent(in) :: p
    integer :: s(3), a
    do a = 1, 3
      s(a) = 1
      do while ((dims(a) + s(a) - 1) / s(a) > p%shape(a))
        s(a) = 2 * s(a)
      end do
    end do
  end function

  ! Mismatches of a read part: sample (i, j, k) of the arrays is grid point (x0 + i*sx, y0 +
  ! j*sy, z0 + k*sz), i, j, k from 0, with (x0, y0, z0) the part's box start (a lattice point).
  integer function check(step, p, s, t, pr) result(bad)
    integer, intent(in) :: step, s(3)
    type(lodex_grid_part), intent(in) :: p
    real(real64), intent(in) :: t(:, :, :)
    real(real32), intent(in) :: pr(:, :, :)
    integer :: i, j, k, x, y, z
    bad = 0
    if (any(shape(t) /= p%shape) .or. any(shape(pr) /= p%shape)) then
      bad = 1
      return
    end if
    do k = 1, size(t, 3)
      z = int(p%box(3)) + (k - 1) * s(3)
      do j = 1, size(t, 2)
        y = int(p%box(2)) + (j - 1) * s(2)
        do i = 1, size(t, 1)
          x = int(p%box(1)) + (i - 1) * s(1)
          if (t(i, j, k) /= temperature_at(x, y, z, step)) bad = bad + 1
          if (pr(i, j, k) /= pressure_at(x, y, z, step)) bad = bad + 1
        end do
      end do
    end do
  end function
end program s3d_grid
