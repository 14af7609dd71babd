/**
 * The order in which waiting interactions get their turn: fair between servers, and between members inside a
 * server, so that one member's flood (or one server's) delays everyone else by about one of its handlers, not by its
 * whole backlog.
 *
 * Start-time fair queueing (Goyal, Vin and Cheng, 1996) on two levels, every turn costing one. Each member's turns
 * are numbered on from where that member's last turn left off, but never below the number the server last served
 * (its clock); the lowest number goes next. A member with nothing queued therefore starts at the clock, ahead of a
 * flooder whose numbers run far past it; members with equal numbers take turns in the order they got them, so a
 * crowd of players each rolling once keeps its arrival order. Servers are numbered the same way, one level up.
 * Turns handed out at once (while nothing waits) are numbered too: a member whose 8 handlers hold every turn has
 * used 8 numbers, and a newcomer goes before that member's next one.
 */

interface Waiting<T> {
  number: number;
  /** Breaks ties between equal numbers: who got theirs first goes first. */
  arrival: number;
  item: T;
}

interface MemberLine<T> {
  waiting: Waiting<T>[];
  /** The number this member's next turn gets, unless the server's clock is past it. */
  next: number;
}

interface ServerLine<T> {
  members: Map<string, MemberLine<T>>;
  /** The highest member number this server has served: a newcomer's number. */
  clock: number;
  /** The number this server's next turn gets among servers, unless the clock of servers is past it. */
  next: number;
  /** While some of its members wait: the number of its next turn among servers, and when it got it. */
  head: number;
  headArrival: number;
  count: number;
}

/** Lines nobody waits in and whose numbers the clocks have passed are forgotten every this many turns. */
const FORGET_EVERY_TURNS = 256;

export class FairOrder<T> {
  private readonly servers = new Map<string, ServerLine<T>>();
  /** The highest server number served. */
  private clock = 0;
  private arrivals = 0;
  private waitingCount = 0;
  private turnsSinceForgetting = 0;

  /** How many wait. */
  get size(): number {
    return this.waitingCount;
  }

  /** Puts `item` in line for `member` of `server`. */
  push(server: string, member: string, item: T): void {
    const serverLine = this.serverLine(server);
    if (serverLine.count === 0) this.numberServer(serverLine);
    const memberLine = this.memberLine(serverLine, member);
    const number = Math.max(serverLine.clock, memberLine.next);
    memberLine.next = number + 1;
    memberLine.waiting.push({ number, arrival: ++this.arrivals, item });
    serverLine.count++;
    this.waitingCount++;
  }

  /** Takes the next in the fair order out of line. */
  shift(): T | undefined {
    let serverLine: ServerLine<T> | undefined;
    for (const candidate of this.servers.values()) {
      if (candidate.count === 0) continue;
      if (!serverLine || candidate.head < serverLine.head || (candidate.head === serverLine.head && candidate.headArrival < serverLine.headArrival)) serverLine = candidate;
    }
    if (!serverLine) return undefined;
    let memberLine: MemberLine<T> | undefined;
    for (const candidate of serverLine.members.values()) {
      const first = candidate.waiting[0];
      if (!first) continue;
      const best = memberLine?.waiting[0];
      if (!best || first.number < best.number || (first.number === best.number && first.arrival < best.arrival)) memberLine = candidate;
    }
    const served = memberLine!.waiting.shift()!;
    serverLine.clock = Math.max(serverLine.clock, served.number);
    this.clock = Math.max(this.clock, serverLine.head);
    serverLine.next = serverLine.head + 1;
    serverLine.count--;
    this.waitingCount--;
    if (serverLine.count > 0) this.numberServer(serverLine);
    this.turnTaken();
    return served.item;
  }

  /** Counts a turn handed out at once to `member` of `server` (only while nobody waits). */
  countTurn(server: string, member: string): void {
    const serverLine = this.serverLine(server);
    const serverNumber = Math.max(this.clock, serverLine.next);
    serverLine.next = serverNumber + 1;
    this.clock = serverNumber;
    const memberLine = this.memberLine(serverLine, member);
    const number = Math.max(serverLine.clock, memberLine.next);
    memberLine.next = number + 1;
    serverLine.clock = number;
    this.turnTaken();
  }

  /**
   * How many of those waiting now would go before an interaction of `member` of `server` arriving now. Each
   * member's (and server's) waiting numbers follow one another, so it is counted line by line, not one by one.
   */
  placeOfNewcomer(server: string, member: string): number {
    const serverLine = this.servers.get(server);
    const ownLine = serverLine?.members.get(member);
    const number = Math.max(serverLine?.clock ?? 0, ownLine?.next ?? 0);
    let inServer = 0;
    for (const line of serverLine?.members.values() ?? []) {
      inServer += line === ownLine ? line.waiting.length : ahead(number, line.waiting[0]?.number, line.waiting.length);
    }
    // The newcomer is its server's (inServer + 1)-th turn from now; count the other servers' turns before it.
    const firstNumber = serverLine && serverLine.count > 0 ? serverLine.head : Math.max(this.clock, serverLine?.next ?? 0);
    const serverNumber = firstNumber + inServer;
    let elsewhere = 0;
    for (const other of this.servers.values()) {
      if (other !== serverLine && other.count > 0) elsewhere += ahead(serverNumber, other.head, other.count);
    }
    return inServer + elsewhere;
  }

  /** Forgets every line: nothing waits and nothing runs, so no member is ahead of another. */
  forget(): void {
    if (this.waitingCount > 0) return;
    this.servers.clear();
    this.clock = 0;
  }

  private serverLine(server: string): ServerLine<T> {
    let line = this.servers.get(server);
    if (!line) {
      line = { members: new Map(), clock: 0, next: 0, head: 0, headArrival: 0, count: 0 };
      this.servers.set(server, line);
    }
    return line;
  }

  private memberLine(serverLine: ServerLine<T>, member: string): MemberLine<T> {
    let line = serverLine.members.get(member);
    if (!line) {
      line = { waiting: [], next: 0 };
      serverLine.members.set(member, line);
    }
    return line;
  }

  /** Gives a server with members waiting the number of its next turn among servers. */
  private numberServer(serverLine: ServerLine<T>): void {
    serverLine.head = Math.max(this.clock, serverLine.next);
    serverLine.headArrival = ++this.arrivals;
  }

  private turnTaken(): void {
    if (++this.turnsSinceForgetting < FORGET_EVERY_TURNS) return;
    this.turnsSinceForgetting = 0;
    // A line whose next number the clock has reached would be numbered from the clock anyway: it holds nothing.
    for (const [server, serverLine] of this.servers) {
      for (const [member, line] of serverLine.members) {
        if (line.waiting.length === 0 && line.next <= serverLine.clock) serverLine.members.delete(member);
      }
      if (serverLine.count === 0 && serverLine.members.size === 0 && serverLine.next <= this.clock) this.servers.delete(server);
    }
  }
}

/** How many of a line of `count` numbered `first`, `first + 1`, … go before (or tie with) `number`. */
function ahead(number: number, first: number | undefined, count: number): number {
  if (first === undefined) return 0;
  return Math.min(count, Math.max(0, number - first + 1));
}
