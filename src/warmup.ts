/**
 * Whether this process has finished warming up after its start: the route schemas compiled, the workflow engine
 * launched or left idle and the word vectors read (serve settles it once that work is done), and the in-process
 * replica loaded (`loaded`: a load that failed is retried by the next search, and the process is not warm until
 * one succeeds). Answers are correct before, but a search waits for the replica's load and every request shares
 * the cores with the rest: `GET /readyz?warm=true` lets a load balancer keep a new process out of rotation until
 * it is done.
 */
export class Warmup {
  private settled = false;

  constructor(private readonly loaded: () => boolean) {}

  get done(): boolean {
    return this.settled && this.loaded();
  }

  settle(): void {
    this.settled = true;
  }
}
