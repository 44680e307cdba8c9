// Whether a process of this machine still runs, by its pid: how a record left by another process
// (a task's, README "Tools that run as tasks") says whether the process that wrote it is gone.

/** Whether process `pid` runs (a pid the system handed out again also says yes: rare). */
export function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, only not as a user who may signal it.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
