import './zod-jitless';
import { run } from './main';

void run();
