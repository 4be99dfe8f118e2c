/**
 * Whether this process has finished warming up after its start: the in-process replica loaded, the route
 * schemas compiled and the workflow engine launched (serve settles it once that work is done). Answers are correct
 * before then, but a search waits for the replica's load and every request shares the cores with the rest of it:
 * `GET /readyz?warm=true` lets a load balancer keep a new process out of rotation until it is done.
 */
export class Warmup {
  private settled = false;

  get done(): boolean {
    return this.settled;
  }

  settle(): void {
    this.settled = true;
  }
}
