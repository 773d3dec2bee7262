// The part of autocannon's API the bench uses (the package ships no types).
declare module 'autocannon' {
  interface Histogram {
    average: number;
    total: number;
    p50: number;
    p99: number;
  }
  interface Result {
    requests: Histogram;
    latency: Histogram;
    errors: number;
    non2xx: number;
    /** seconds */
    duration: number;
  }
  function autocannon(options: { url: string; connections?: number; duration?: number }): Promise<Result>;
  export default autocannon;
}
