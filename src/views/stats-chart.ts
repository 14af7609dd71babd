/**
 * /stats' picture: two panels, the successes expected from the odds against those got (by bands of odds), and the
 * D100 faces in ten bins against the flat line an even die gives. Drawn by Apache
 * ECharts as SVG on the server, then made a PNG by resvg with the Inter font shipped in node_modules: no system
 * font is read, so a host without fonts draws the same picture.
 *
 * Discord shows an embed's image about 400 px wide on a phone: the picture is drawn at twice that with large text.
 */
import { createRequire } from 'node:module';
import { renderAsync } from '@resvg/resvg-js';
import type { OddsBand } from '../engine/calibration.js';
import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TitleComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';

echarts.use([BarChart, LineChart, GridComponent, LegendComponent, TitleComponent, SVGRenderer]);

const WIDTH = 800;
const HEIGHT = 1000;

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
  /** The rolls with odds, by bands of their odds (src/engine/calibration.ts, oddsBands). */
  bands: readonly OddsBand[];
  /** The D100 faces in ten bins of ten (1–10 … 91–100). */
  bins: readonly number[];
}

const round = (value: number) => Math.round(value * 10) / 10;

/**
 * The chart as SVG text. The first panel sets each band of odds' expected successes beside its successes (a
 * running total over thousands of rolls shows two lines on top of each other; bands show where the dice stray).
 */
export function statsChartSvg(data: StatsChartData): string {
  const rolls = data.bands.reduce((sum, band) => sum + band.rolls, 0);
  const got = data.bands.reduce((sum, band) => sum + band.got, 0);
  const expected = data.bands.reduce((sum, band) => sum + band.expected, 0);
  const faces = data.bins.reduce((sum, count) => sum + count, 0);
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: WIDTH, height: HEIGHT });
  const axisText = { color: MUTED, fontSize: 24, fontFamily: FONT };
  const titleText = { color: TEXT, fontSize: 30, fontWeight: 'bold' as const, fontFamily: FONT };
  const barLabel = { show: true, position: 'top' as const, color: TEXT, fontSize: 20, fontFamily: FONT };
  const splitLine = { lineStyle: { color: GRID_LINE } };
  const bandNames = data.bands.map((band, index) => (index === data.bands.length - 1 ? `${band.from}–100%` : `${band.from}–${data.bands[index + 1]!.from}%`));
  chart.setOption({
    animation: false,
    backgroundColor: BACKGROUND,
    textStyle: { fontFamily: FONT },
    title: [
      { text: rolls > 0 ? `Successes: ${got} got, ${round(expected)} expected` : 'Successes: no rolls with odds', left: 24, top: 20, textStyle: titleText },
      { text: faces > 0 ? `D100 faces in tens: ${faces.toLocaleString('en-US')} rolled` : 'D100 faces: none rolled', left: 24, top: 520, textStyle: titleText },
    ],
    legend: [
      {
        top: 66,
        left: 24,
        itemWidth: 28,
        itemHeight: 20,
        itemGap: 32,
        textStyle: { color: TEXT, fontSize: 24, fontFamily: FONT },
        data: ['Expected from odds', 'Got'],
      },
      {
        top: 566,
        left: 24,
        itemWidth: 28,
        itemHeight: 20,
        itemGap: 32,
        textStyle: { color: TEXT, fontSize: 24, fontFamily: FONT },
        data: ['Faces', 'An even die'],
      },
    ],
    grid: [
      { left: 90, right: 30, top: 130, height: 290 },
      { left: 90, right: 30, top: 630, height: 280 },
    ],
    xAxis: [
      { gridIndex: 0, type: 'category', data: bandNames, name: 'odds of the roll', nameLocation: 'middle', nameGap: 44, nameTextStyle: axisText, axisLabel: { ...axisText, fontSize: 21 } },
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
      // A little room above the tallest bar, so the count drawn above it stays inside the panel.
      { gridIndex: 0, type: 'value', min: 0, boundaryGap: [0, '12%'], minInterval: 1, axisLabel: axisText, splitLine },
      { gridIndex: 1, type: 'value', min: 0, boundaryGap: [0, '12%'], minInterval: 1, axisLabel: axisText, splitLine },
    ],
    series: [
      { name: 'Expected from odds', type: 'bar', xAxisIndex: 0, yAxisIndex: 0, barGap: '10%', itemStyle: { color: EXPECTED }, label: { ...barLabel, show: rolls > 0 }, data: data.bands.map((band) => round(band.expected)) },
      { name: 'Got', type: 'bar', xAxisIndex: 0, yAxisIndex: 0, itemStyle: { color: GOT }, label: { ...barLabel, show: rolls > 0 }, data: data.bands.map((band) => band.got) },
      {
        name: 'Faces',
        type: 'bar',
        xAxisIndex: 1,
        yAxisIndex: 1,
        barWidth: '70%',
        itemStyle: { color: FACES },
        // With many faces the bars are tall and the even line crosses their tops: their counts go inside, at the foot.
        label: { ...barLabel, show: faces > 0, position: faces >= 50 ? 'insideBottom' : 'top' },
        data: [...data.bins],
      },
      // The flat line an even die gives, a tenth of the faces in each bin: drawn as a line series so the legend names it.
      {
        name: 'An even die',
        type: 'line',
        xAxisIndex: 1,
        yAxisIndex: 1,
        showSymbol: false,
        lineStyle: { color: EXPECTED, width: 4, type: 'dashed' },
        itemStyle: { color: EXPECTED },
        data: faces > 0 ? data.bins.map(() => round(faces / data.bins.length)) : [],
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
