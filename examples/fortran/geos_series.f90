! GEOS-5-like series from Fortran: a lon x lat x lev grid split over the ranks along x and y (an
! MPI_Dims_create lattice; every rank holds all levels of its columns), two 3-D variables "T"
! and "U" and two 2-D surface variables "PS" and "TS" (all real32), written for 5 steps into one
! lodex series with STAR aggregation, d_tar forced to 2 steps per window (so the last, partial
! window is written by lodex_series_flush; the odd steps, which complete a window, are written
! asynchronously, under a budget of 64 MiB in flight per rank: lodex_dataset_set_pending_budget).
! The program then reads back
!   - the time series of one column of T (every step, every level) and
!   - one plane at one step: PS whole, and level LEV/2 of U,
! first on rank 0 alone (no communicator), then collectively (each rank its part), and checks
! every value against the formulas (x = lon, y = lat, z = lev index from 0; step from 0):
!
! T(x, y, z, step) = 200 + x + 40*y + 1000*z + 0.5*step   (x, y, z from 0; real32)
! U(x, y, z, step) = -50 + 0.25*x + 8*y + 100*z + step   (x, y, z from 0; real32)
! PS(x, y, step) = 100000 + 10*x + 1000*y + 100*step   (x, y from 0; real32)
! TS(x, y, step) = 250 + x + 0.5*y + 0.25*step   (x, y from 0; real32)
!
! All are exact in float32 for grids up to a few hundred points per axis. The column is
! (x, y) = (LON/3, LAT/2); the plane step is 3.
!
!   mpiexec -n 4 ./geos_series OUT_DIR [LON LAT LEV]          (default 36 18 8)
!
! Output lines are "key value ..." for scripts; the exit code is non-zero when a check fails.
program geos_series
  use mpi
  use lodex
  use, intrinsic :: iso_fortran_env, only: real32, int64, error_unit
  implicit none
  integer, parameter :: NSTEPS = 5, PLANE_STEP = 3
  integer :: ierr, rank, nranks, i, step, errs, errs_serial, errs_collective, in_flight
  integer :: dims(3), pdims(2), coords(2), lo(3), hi(3), box(6), cart, col(2), lev
  character(len=4096) :: out, arg
  type(lodex_dataset) :: ds
  type(lodex_series) :: s
  type(lodex_series_info) :: info
  type(lodex_pending) :: pending
  real(real32), allocatable, target :: t(:, :, :), u(:, :, :), ps(:, :), ts(:, :)
  integer, allocatable :: steps(:)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  if (command_argument_count() /= 1 .and. command_argument_count() /= 4) then
    if (rank == 0) write (error_unit, '(a)') 'usage: geos_series OUT_DIR [LON LAT LEV]'
    call MPI_Finalize(ierr)
    error stop 2
  end if
  call get_command_argument(1, out)
  dims = [36, 18, 8]
  if (command_argument_count() == 4) then
    do i = 1, 3
      call get_command_argument(1 + i, arg)
      read (arg, *) dims(i)
    end do
  end if
  col = [dims(1) / 3, dims(2) / 2]
  lev = dims(3) / 2

  ! The 2-D rank lattice over x (lon) and y (lat); each rank holds every level of its columns.
  pdims = 0
  call MPI_Dims_create(nranks, 2, pdims, ierr)
  call MPI_Cart_create(MPI_COMM_WORLD, 2, pdims, [.false., .false.], .false., cart, ierr)
  call MPI_Cart_coords(cart, rank, 2, coords, ierr)
  call MPI_Comm_free(cart, ierr)
  lo = [(coords * dims(1:2)) / pdims, 0]
  hi = [((coords + 1) * dims(1:2)) / pdims, dims(3)]
  box = [lo, hi]                     ! [x0, y0, z0, x1, y1, z1], the same at every step
  if (rank == 0) then
    print '(a,3(1x,i0))', 'dims', dims
    print '(a,2(1x,i0))', 'ranks', pdims
  end if

  ! ---- Write 5 steps; d_tar = 2: windows {0, 1}, {2, 3}, and {4} written by the flush -------
  allocate(t(lo(1):hi(1) - 1, lo(2):hi(2) - 1, 0:dims(3) - 1), u(lo(1):hi(1) - 1, lo(2):hi(2) - 1, 0:dims(3) - 1))
  allocate(ps(lo(1):hi(1) - 1, lo(2):hi(2) - 1), ts(lo(1):hi(1) - 1, lo(2):hi(2) - 1))
  call lodex_dataset_create(ds, trim(out), comm=MPI_COMM_WORLD)
  call lodex_series_define(s, ds, 'atmosphere', dims, [character(len=2) :: 'T', 'U', 'PS', 'TS'], &
                           [LODEX_F4, LODEX_F4, LODEX_F4, LODEX_F4], var_ndims=[3, 3, 2, 2], d_tar=2)
  call lodex_dataset_set_pending_budget(ds, 64_int64 * 1024 * 1024)   ! collective, the same on every rank
  in_flight = 0
  do step = 0, NSTEPS - 1
    call fill(step)
    ! Fortran (x, y, z) and (x, y) arrays are the series' C (z, y, x) and (y, x): passed as they are.
    if (mod(step, 2) == 1) then
      ! Odd steps complete a window: asynchronous, so the window's files are written while the
      ! next step is computed (fill may overwrite the arrays at once: the step was copied). The
      ! window commits at the next write or the flush; the handle may go now.
      call lodex_series_write_async(s, step, box, [lodex_field('T', t), lodex_field('U', u), &
                                                   lodex_field('PS', ps), lodex_field('TS', ts)], pending)
      if (lodex_dataset_pending_bytes(ds) > 0) in_flight = in_flight + 1   ! the window is in flight
      call lodex_pending_free(pending)
    else
      call lodex_series_write(s, step, box, [lodex_field('T', t), lodex_field('U', u), lodex_field('PS', ps), &
                                             lodex_field('TS', ts)])
    end if
  end do
  call lodex_series_flush(s)           ! the partial window {4}; lodex_dataset_close would too
  call lodex_series_steps(s, steps)
  call lodex_series_info_get(s, info)
  if (rank == 0) then
    print '(a,1x,i0)', 'steps', size(steps)
    print '(a,1x,i0)', 'd_tar', info%d_tar
  end if
  errs = 0
  if (size(steps) /= NSTEPS .or. info%d_tar /= 2) errs = errs + 1
  if (in_flight /= 2 .or. lodex_dataset_pending_bytes(ds) /= 0) errs = errs + 1   ! two windows, both done
  call lodex_dataset_close(ds)

  ! ---- Reads on rank 0 alone: no communicator --------------------------------------------
  errs_serial = 0
  if (rank == 0) then
    call lodex_dataset_open(ds, trim(out))
    call lodex_series_open(s, ds, 'atmosphere')
    errs_serial = check_reads(s, .false.)
    call lodex_dataset_close(ds)
  end if
  ! ---- The same reads collectively: each rank its part (a share of the steps, or of space) --
  call lodex_dataset_open(ds, trim(out), comm=MPI_COMM_WORLD)
  call lodex_series_open(s, ds, 'atmosphere')
  errs_collective = check_reads(s, .true.)
  call lodex_dataset_close(ds)

  errs = errs + errs_serial + errs_collective
  call MPI_Allreduce(MPI_IN_PLACE, errs, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    print '(a,2(1x,i0))', 'column', col
    print '(a,1x,i0,1x,a,1x,i0)', 'plane_step', PLANE_STEP, 'plane_level', lev
    if (errs == 0) then
      print '(a)', 'check ok'
    else
      print '(a,1x,i0)', 'check failed', errs
    end if
  end if
  call MPI_Finalize(ierr)
  if (errs /= 0) error stop 1

contains

  pure real(real32) function t_at(x, y, z, step)
    integer, intent(in) :: x, y, z, step
    t_at = 200.0 + x + 40.0 * y + 1000.0 * z + 0.5 * step
  end function

  pure real(real32) function u_at(x, y, z, step)
    integer, intent(in) :: x, y, z, step
    u_at = -50.0 + 0.25 * x + 8.0 * y + 100.0 * z + step
  end function

  pure real(real32) function ps_at(x, y, step)
    integer, intent(in) :: x, y, step
    ps_at = 100000.0 + 10.0 * x + 1000.0 * y + 100.0 * step
  end function

  pure real(real32) function ts_at(x, y, step)
    integer, intent(in) :: x, y, step
    ts_at = 250.0 + x + 0.5 * y + 0.25 * step
  end function

  subroutine fill(step)
    integer, intent(in) :: step
    integer :: x, y, z
    do y = lo(2), hi(2) - 1
      do x = lo(1), hi(1) - 1
        do z = 0, dims(3) - 1
          t(x, y, z) = t_at(x, y, z, step)
          u(x, y, z) = u_at(x, y, z, step)
        end do
        ps(x, y) = ps_at(x, y, step)
        ts(x, y) = ts_at(x, y, step)
      end do
    end do
  end subroutine

  ! The time series of T at the column, PS and TS whole at PLANE_STEP, and level `lev` of U at
  ! PLANE_STEP; each array element (i, j, k[, n]) is point (x0 + i - 1, y0 + j - 1, z0 + k - 1)
  ! of the rank's part box at its n-th step. Returns the mismatches.
  integer function check_reads(s, collective) result(bad)
    type(lodex_series), intent(in) :: s
    logical, intent(in) :: collective
    real(real32), allocatable :: a4(:, :, :, :), a3(:, :, :)
    type(lodex_series_part) :: p
    integer, allocatable :: got(:)
    integer :: x, y, z, n, v, k, values, ierr
    character(len=2), parameter :: surface(2) = ['PS', 'TS']
    bad = 0
    values = 0
    ! Time series of one column, every level: (1, 1, lev, steps)
    if (collective) then
      call lodex_series_read(s, 'T', a4, box=[col, 0, col + 1, dims(3)], comm=MPI_COMM_WORLD, part=p, part_steps=got)
    else
      call lodex_series_read(s, 'T', a4, box=[col, 0, col + 1, dims(3)], part=p, part_steps=got)
      if (size(a4, 3) /= dims(3) .or. size(a4, 4) /= NSTEPS) bad = bad + 1
    end if
    values = values + size(a4)
    do n = 1, size(a4, 4)
      do z = 1, size(a4, 3)
        do y = 1, size(a4, 2)
          do x = 1, size(a4, 1)
            if (a4(x, y, z, n) /= t_at(int(p%box(1)) + x - 1, int(p%box(2)) + y - 1, int(p%box(3)) + z - 1, &
                                       got(n))) bad = bad + 1
          end do
        end do
      end do
    end do
    ! Surface variables at one step: (lon, lat, 1)
    do v = 1, 2
      if (collective) then
        call lodex_series_read(s, surface(v), a3, steps=[PLANE_STEP], comm=MPI_COMM_WORLD, part=p, part_steps=got)
      else
        call lodex_series_read(s, surface(v), a3, steps=[PLANE_STEP], part=p, part_steps=got)
        if (any(shape(a3) /= [dims(1), dims(2), 1])) bad = bad + 1
      end if
      values = values + size(a3)
      do n = 1, size(a3, 3)
        do y = 1, size(a3, 2)
          do x = 1, size(a3, 1)
            if (v == 1) then
              if (a3(x, y, n) /= ps_at(int(p%box(1)) + x - 1, int(p%box(2)) + y - 1, got(n))) bad = bad + 1
            else
              if (a3(x, y, n) /= ts_at(int(p%box(1)) + x - 1, int(p%box(2)) + y - 1, got(n))) bad = bad + 1
            end if
          end do
        end do
      end do
    end do
    ! One level of a 3-D variable at one step: a plane (lon, lat, 1)
    if (collective) then
      call lodex_series_read(s, 'U', a3, steps=[PLANE_STEP], box=[0, 0, lev, dims(1), dims(2), lev + 1], &
                             comm=MPI_COMM_WORLD, part=p, part_steps=got)
    else
      call lodex_series_read(s, 'U', a3, steps=[PLANE_STEP], box=[0, 0, lev, dims(1), dims(2), lev + 1], &
                             part=p, part_steps=got)
      if (any(shape(a3) /= [dims(1), dims(2), 1])) bad = bad + 1
    end if
    values = values + size(a3)
    k = int(p%box(3))
    do n = 1, size(a3, 3)
      do y = 1, size(a3, 2)
        do x = 1, size(a3, 1)
          if (a3(x, y, n) /= u_at(int(p%box(1)) + x - 1, int(p%box(2)) + y - 1, k, got(n))) bad = bad + 1
        end do
      end do
    end do
    ! The ranks' parts together are the whole answer.
    if (collective) call MPI_Allreduce(MPI_IN_PLACE, values, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    if (values /= dims(3) * NSTEPS + 3 * dims(1) * dims(2)) bad = bad + 1
  end function
end program geos_series
