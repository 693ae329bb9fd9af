// The search room: the search field above the diagrams, its query language and the marks it sets on cards and nodes.
export { SearchController } from './searchController';
