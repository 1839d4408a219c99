import { LineChart } from 'echarts/charts';
import { DataZoomComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';

/**
 * ECharts with only what our charts use (line series, grid, tooltip, legend, zoom): loaded on demand
 * by TimeSeriesChart, so neither /login nor the table pages pay for it.
 */
echarts.use([LineChart, GridComponent, TooltipComponent, LegendComponent, DataZoomComponent, CanvasRenderer]);

export { echarts };
