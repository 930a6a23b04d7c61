! Particles from Fortran, as a molecular-dynamics code writes them: every rank holds N atoms of
! its slab of the unit box along z (positions as three real64 arrays x, y, z of N, an integer id
! and a real32 energy), and writes them every step while it computes. The coordinates go to lodex
! as they are, one array per component (fields 'position/x', 'position/y', 'position/z'): the
! write interleaves them itself. Step 0 is written synchronously; steps 1 to 3
! asynchronously (lodex_particles_write_async): the call returns once the atoms reached the ranks
! that write them, the arrays are overwritten by the next step's values at once (lodex copied
! what it still needs), the files are written on a helper thread, and each step commits at the
! next write; lodex_dataset_close commits the last. The box is periodic along x and y, and, as
! in an MD code between re-neighbourings, atoms may sit past its faces: x runs over [0.3, 1.3),
! and lodex wraps the positions it stores into [0, 1) (the program's arrays stay as they are).
! Then a restart from the checkpoint of step 1: the dataset reopened, the steps after 1 removed
! (lodex_particles_truncate) and written again, the last through buffers filled in place
! (lodex_particles_buffers, zero-copy input). The program then checks the steps and the
! last step's domain on rank 0.
!
! Atom i of rank r at step s: x = (i + 0.5) / N + 0.3, stored as mod(x, 1); y = mod(7 * i, N) / N,
! z = (r + (i + 0.5) / N) / R, id = r * N + i, energy = s + i / N.
!
!   mpiexec -n 3 ./md_particles OUT_DIR [N]          (default N = 5000)
!
! Output lines are "key value ..." for scripts; the exit code is non-zero when a check fails.
program md_particles
  use mpi
  use lodex
  use, intrinsic :: iso_fortran_env, only: real32, real64, int64, error_unit
  implicit none
  integer, parameter :: NSTEPS = 4
  integer :: ierr, rank, nranks, n, i, step, errs, removed
  character(len=4096) :: out, arg
  type(lodex_dataset) :: ds
  type(lodex_particles) :: g
  type(lodex_pending) :: pending
  type(lodex_write_profile) :: profile
  real(real64), allocatable, target :: x(:), y(:), z(:)
  integer(int64), allocatable, target :: id(:)
  real(real32), allocatable, target :: energy(:)
  integer, allocatable :: steps(:)
  real(real64) :: patch(6), domain(6)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  if (command_argument_count() < 1) then
    if (rank == 0) write (error_unit, '(a)') 'usage: md_particles OUT_DIR [N]'
    call MPI_Finalize(ierr)
    error stop 2
  end if
  call get_command_argument(1, out)
  n = 5000
  if (command_argument_count() >= 2) then
    call get_command_argument(2, arg)
    read (arg, *) n
  end if
  allocate (x(n), y(n), z(n), id(n), energy(n))
  patch = [0d0, 0d0, dble(rank) / nranks, 1d0, 1d0, dble(rank + 1) / nranks]
  errs = 0

  call lodex_dataset_create(ds, trim(out) // '/md.lodex', comm=MPI_COMM_WORLD)
  call lodex_particles_define(g, ds, 'atoms', ['position', 'id      ', 'energy  '], [LODEX_F8, LODEX_I8, LODEX_F4], &
                              [3, 1, 1], [0d0, 0d0, 0d0, 1d0, 1d0, 1d0], partition_dims=[1, 1, nranks], &
                              periodic=[.true., .true., .false.])
  do step = 0, NSTEPS - 1
    call fill(step)
    if (step == 0) then
      call lodex_particles_write(g, step, [lodex_field('position/x', x), lodex_field('position/y', y), &
                                           lodex_field('position/z', z), lodex_field('id', id), &
                                           lodex_field('energy', energy)], patch=patch, ierr=ierr)
    else
      if (step > 1) call lodex_pending_free(pending)
      call lodex_particles_write_async(g, step, [lodex_field('position/x', x), lodex_field('position/y', y), &
                                                 lodex_field('position/z', z), lodex_field('id', id), &
                                                 lodex_field('energy', energy)], pending, patch=patch, ierr=ierr)
      x = -1d0   ! the simulation moves on: the arrays are reused at once
      y = -1d0
      z = -1d0
    end if
    if (ierr /= LODEX_OK) then
      write (error_unit, '(a, i0, 2a)') 'write of step ', step, ' failed: ', lodex_last_error()
      errs = errs + 1
    end if
  end do
  call lodex_particles_profile(g, profile)   ! step 2's: committed by step 3's write
  if (rank == 0) write (*, '(a, i0, a, i0, a, es10.3)') 'profile_step ', profile%step, ' particles ', &
    profile%particles, ' blocked_s ', profile%blocked_s
  if (profile%step /= NSTEPS - 2 .or. profile%particles /= int(n, int64) * nranks) errs = errs + 1
  call lodex_pending_free(pending)
  call lodex_dataset_close(ds, ierr)   ! commits step 3
  if (ierr /= LODEX_OK) errs = errs + 1

  ! A restart from the checkpoint of step 1: the steps after it go (lodex_particles_truncate) and
  ! are written again.
  call lodex_dataset_open(ds, trim(out) // '/md.lodex', LODEX_MODE_APPEND, comm=MPI_COMM_WORLD)
  call lodex_particles_open(g, ds, 'atoms')
  call lodex_particles_truncate(g, 1, removed, ierr)
  if (rank == 0) write (*, '(a, i0)') 'restart removed ', removed
  if (ierr /= LODEX_OK .or. removed /= NSTEPS - 2) errs = errs + 1
  do step = 2, NSTEPS - 1
    call fill(step)
    if (step == 2) then
      call lodex_particles_write(g, step, [lodex_field('position/x', x), lodex_field('position/y', y), &
                                           lodex_field('position/z', z), lodex_field('id', id), &
                                           lodex_field('energy', energy)], patch=patch, ierr=ierr)
    else
      call write_through_buffers(step)
    end if
    if (ierr /= LODEX_OK) errs = errs + 1
  end do
  call lodex_dataset_close(ds)

  if (rank == 0) then
    call lodex_dataset_open(ds, trim(out) // '/md.lodex', LODEX_MODE_READ)
    call lodex_particles_open(g, ds, 'atoms')
    call lodex_particles_steps(g, steps)
    write (*, '(a, *(1x, i0))') 'steps', steps
    if (size(steps) /= NSTEPS) errs = errs + 1
    call lodex_particles_step_domain(g, NSTEPS - 1, domain)
    write (*, '(a, 6(1x, f0.3))') 'domain', domain
    if (any(domain /= [0d0, 0d0, 0d0, 1d0, 1d0, 1d0])) errs = errs + 1
    call lodex_dataset_close(ds)
  end if
  call MPI_Allreduce(MPI_IN_PLACE, errs, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0) write (*, '(a, i0)') 'errors ', errs
  call MPI_Finalize(ierr)
  if (errs /= 0) error stop 1

contains

  ! Zero-copy input: the step's buffers (positions as three arrays), filled in place, committed.
  ! A code computing its atoms straight into them skips the copy of a write; here they are copied
  ! from the arrays, and a pointer of the wrong kind is refused first.
  subroutine write_through_buffers(s)
    integer, intent(in) :: s
    type(lodex_buffers) :: b
    real(real64), pointer :: bx(:), by(:), bz(:), wrong(:)
    integer(int64), pointer :: bid(:)
    real(real32), pointer :: benergy(:)
    integer :: e
    call lodex_particles_buffers(g, s, n, b, patch=patch, position_components=.true., ierr=ierr)
    if (ierr /= LODEX_OK) return
    call lodex_buffers_field(b, 'energy', wrong, ierr=e)
    if (e /= LODEX_ERR_INVALID_ARGUMENT .or. associated(wrong)) errs = errs + 1
    call lodex_buffers_field(b, 'position/x', bx)
    call lodex_buffers_field(b, 'position/y', by)
    call lodex_buffers_field(b, 'position/z', bz)
    call lodex_buffers_field(b, 'id', bid)
    call lodex_buffers_field(b, 'energy', benergy)
    if (size(bx) /= n .or. size(bid) /= n .or. size(benergy) /= n) errs = errs + 1
    bx = x
    by = y
    bz = z
    bid = id
    benergy = energy
    call lodex_buffers_commit(b, ierr)
    call lodex_buffers_free(b)
  end subroutine

  ! This rank's atoms at `s`.
  subroutine fill(s)
    integer, intent(in) :: s
    do i = 0, n - 1
      x(i + 1) = (i + 0.5d0) / n + 0.3d0
      y(i + 1) = dble(mod(7 * i, n)) / n
      z(i + 1) = (rank + (i + 0.5d0) / n) / nranks
      id(i + 1) = int(rank, int64) * n + i
      energy(i + 1) = real(s + dble(i) / n, real32)
    end do
  end subroutine
end program
