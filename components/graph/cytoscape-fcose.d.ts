declare module "cytoscape-fcose";
