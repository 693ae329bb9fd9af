// The insights room: the Insights tab's figures about the shown session (or every stored one) and their filters.
export { InsightsView } from './insightsView';
