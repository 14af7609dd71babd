/**
 * The /stats thread's entry, started by `stats-thread.ts`: the exact count's distribution (n²/2 steps, ~180 ms for
 * 10,000 rolls) and the chart's drawing (~50 ms of ECharts) run here, never on the bot's thread.
 */
import { parentPort } from 'node:worker_threads';
import { calibrate, d100Histogram, HISTOGRAM_FACES_MIN, oddsBands, uniformity } from '../engine/calibration.js';
import { statsChartPng } from './stats-chart.js';
import type { StatsReply, StatsRequest, StatsSummary } from './stats-thread.js';

async function summarize({ id, weighed, faces }: StatsRequest): Promise<StatsReply> {
  try {
    const calibration = calibrate(weighed);
    const bins = d100Histogram(faces);
    const summary: StatsSummary = {
      rolls: calibration.rolls,
      got: calibration.got,
      expected: calibration.expected,
      spread: calibration.spread,
      pValue: calibration.pValue,
      faces: faces.length,
      bins,
      evenness: faces.length >= HISTOGRAM_FACES_MIN ? uniformity(bins) : null,
    };
    const png = await statsChartPng({ bands: oddsBands(weighed), bins });
    return { type: 'done', id, summary, png };
  } catch (error) {
    const failure = error instanceof Error ? error : new Error(String(error));
    return { type: 'failed', id, message: failure.message, ...(failure.stack ? { stack: failure.stack } : {}) };
  }
}

const port = parentPort;
if (!port) throw new Error('stats-worker runs as a worker thread (see stats-thread.ts)');
port.on('message', (request: StatsRequest) => {
  void summarize(request).then((reply) => port.postMessage(reply));
});
