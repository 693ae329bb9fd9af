// Small controls every room uses.
export { toolbarButton } from './toolbarButton';
