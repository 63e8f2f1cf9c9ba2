import type { Route } from '../http-types';
import { actionsRoutes } from './actions';
import { issueRoutes } from './issues';
import { pullRoutes } from './pulls';
import { releaseRoutes } from './releases';
import { repositoryRoutes } from './repository';
import { settingsRoutes } from './settings';

/** Every REST route the fake serves, keyed like the OpenAPI subset: `METHOD /path/{template}`. */
export const ROUTES: Record<string, Route> = { ...issueRoutes, ...pullRoutes, ...repositoryRoutes, ...releaseRoutes, ...actionsRoutes, ...settingsRoutes };
