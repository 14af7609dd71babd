/**
 * /stats' picture: two panels, the successes expected from the odds against those got (running totals over the
 * rolls, oldest first), and the D100 faces in ten bins against the flat line an even die gives. Drawn by Apache
 * ECharts as SVG on the server, then made a PNG by resvg with the Inter font shipped in node_modules: no system
 * font is read, so a host without fonts draws the same picture.
 *
 * Discord shows an embed's image about 400 px wide on a phone: the picture is drawn at twice that with large text.
 */
import { createRequire } from 'node:module';
import { renderAsync } from '@resvg/resvg-js';
import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, MarkLineComponent, TitleComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';

echarts.use([BarChart, LineChart, GridComponent, LegendComponent, MarkLineComponent, TitleComponent, SVGRenderer]);

export const STATS_CHART_NAME = 'stats.png';
const WIDTH = 800;
const HEIGHT = 1000;
/** Points of the running totals drawn at most: more would not show at this width and would only slow the drawing. */
const LINE_POINTS_MAX = 400;

const require = createRequire(import.meta.url);
const FONT_FILES = [require.resolve('@expo-google-fonts/inter/400Regular/Inter_400Regular.ttf'), require.resolve('@expo-google-fonts/inter/700Bold/Inter_700Bold.ttf')];
const FONT = 'Inter';

// Discord's dark theme: the picture sits in an embed on it.
const BACKGROUND = '#2b2d31';
const TEXT = '#f2f3f5';
const MUTED = '#b5bac1';
const GRID_LINE = '#3f4147';
const EXPECTED = '#faa61a';
const GOT = '#57f287';
const FACES = '#5865f2';

export interface StatsChartData {
  /** Running totals, one per roll, oldest first. */
  expectedSoFar: readonly number[];
  gotSoFar: readonly number[];
  /** The D100 faces in ten bins of ten (1–10 … 91–100). */
  bins: readonly number[];
}

/** At most `max` of a series' points, evenly spread, the last always kept: [roll number, value]. */
function thinned(values: readonly number[], max: number): Array<[number, number]> {
  const step = Math.max(1, Math.ceil(values.length / max));
  const points: Array<[number, number]> = [];
  for (let i = step - 1; i < values.length; i += step) points.push([i + 1, round(values[i]!)]);
  if (values.length > 0 && points.at(-1)?.[0] !== values.length) points.push([values.length, round(values.at(-1)!)]);
  return [[0, 0], ...points];
}

const round = (value: number) => Math.round(value * 100) / 100;

/** The chart as SVG text: the first panel only with rolls that have odds, the second only with D100 faces. */
export function statsChartSvg(data: StatsChartData): string {
  const rolls = data.expectedSoFar.length;
  const faces = data.bins.reduce((sum, count) => sum + count, 0);
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: WIDTH, height: HEIGHT });
  const axisText = { color: MUTED, fontSize: 24, fontFamily: FONT };
  const titleText = { color: TEXT, fontSize: 30, fontWeight: 'bold' as const, fontFamily: FONT };
  const splitLine = { lineStyle: { color: GRID_LINE } };
  chart.setOption({
    animation: false,
    backgroundColor: BACKGROUND,
    textStyle: { fontFamily: FONT },
    title: [
      { text: rolls > 0 ? 'Successes: expected vs got' : 'Successes: no rolls with odds', left: 24, top: 20, textStyle: titleText },
      { text: faces > 0 ? 'D100 faces, in tens' : 'D100 faces: none rolled', left: 24, top: 520, textStyle: titleText },
    ],
    legend: {
      top: 66,
      left: 24,
      itemWidth: 36,
      itemHeight: 14,
      textStyle: { color: TEXT, fontSize: 24, fontFamily: FONT },
      data: ['Expected (Σ odds)', 'Got'],
    },
    grid: [
      { left: 100, right: 40, top: 130, height: 300 },
      { left: 100, right: 40, top: 610, height: 300 },
    ],
    xAxis: [
      { gridIndex: 0, type: 'value', min: 0, max: Math.max(1, rolls), minInterval: 1, name: 'rolls', nameLocation: 'middle', nameGap: 44, nameTextStyle: axisText, axisLabel: axisText, splitLine },
      {
        gridIndex: 1,
        type: 'category',
        data: ['1', '11', '21', '31', '41', '51', '61', '71', '81', '91'],
        name: 'faces from',
        nameLocation: 'middle',
        nameGap: 44,
        nameTextStyle: axisText,
        axisLabel: axisText,
      },
    ],
    yAxis: [
      { gridIndex: 0, type: 'value', min: 0, minInterval: 1, axisLabel: axisText, splitLine },
      { gridIndex: 1, type: 'value', min: 0, minInterval: 1, axisLabel: axisText, splitLine },
    ],
    series: [
      {
        name: 'Expected (Σ odds)',
        type: 'line',
        xAxisIndex: 0,
        yAxisIndex: 0,
        showSymbol: false,
        lineStyle: { width: 5, type: 'dashed', color: EXPECTED },
        itemStyle: { color: EXPECTED },
        data: thinned(data.expectedSoFar, LINE_POINTS_MAX),
      },
      {
        name: 'Got',
        type: 'line',
        xAxisIndex: 0,
        yAxisIndex: 0,
        showSymbol: false,
        step: 'end',
        lineStyle: { width: 5, color: GOT },
        itemStyle: { color: GOT },
        data: thinned(data.gotSoFar, LINE_POINTS_MAX),
      },
      {
        name: 'Faces',
        type: 'bar',
        xAxisIndex: 1,
        yAxisIndex: 1,
        barWidth: '70%',
        itemStyle: { color: FACES },
        label: { show: faces > 0, position: 'top', color: TEXT, fontSize: 22, fontFamily: FONT },
        data: [...data.bins],
        // The flat line an even die gives: a tenth of the faces in each bin.
        markLine:
          faces > 0
            ? {
                silent: true,
                symbol: 'none',
                lineStyle: { color: EXPECTED, width: 4, type: 'dashed' },
                label: { show: true, position: 'insideEndTop', formatter: 'even', color: EXPECTED, fontSize: 22, fontFamily: FONT },
                data: [{ yAxis: faces / data.bins.length }],
              }
            : undefined,
      },
    ],
  });
  const svg = chart.renderToSVGString();
  chart.dispose();
  return svg;
}

/**
 * The chart as a PNG. resvg draws on libuv's thread pool (renderAsync), so the bot's thread spends only the SVG's
 * drawing (a few ms: docs/stats.md).
 */
export async function statsChartPng(data: StatsChartData): Promise<Buffer> {
  const image = await renderAsync(statsChartSvg(data), {
    font: { loadSystemFonts: false, fontFiles: FONT_FILES, defaultFontFamily: FONT, sansSerifFamily: FONT },
    background: BACKGROUND,
  });
  return image.asPng();
}
