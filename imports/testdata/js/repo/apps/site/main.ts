import {k} from '#web/k';
